import { apiRoutes } from './api-route.js'
import { healthRoute } from './health-route.js'
import { mcpRoute } from './mcp-route.js'
import { ingestRoutes } from './ingest-route.js'
import { oauthMetadataRoutes } from './oauth-metadata.js'
import { registerRoute } from './oauth-register.js'
import { authorizeRoutes } from './oauth-authorize.js'
import { tokenRoutes } from './oauth-token.js'
import { uiRoutes } from './ui-route.js'
import { AdminFeed } from './admin-feed.js'
import type { Route } from './types.js'

const feed = new AdminFeed()

/** The route table of `brain serve --http`; `/ingest` and the event streams share one feed. */
export const ROUTES: readonly Route[] = [
  healthRoute,
  mcpRoute,
  ...ingestRoutes({ feed }),
  ...apiRoutes({ feed }),
  ...oauthMetadataRoutes,
  registerRoute,
  ...authorizeRoutes,
  ...tokenRoutes,
  ...uiRoutes,
]
