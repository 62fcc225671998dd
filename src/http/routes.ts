import { apiRoutes } from './api-route.js'
import { healthRoute } from './health-route.js'
import { mcpRoute } from './mcp-route.js'
import { ingestRoutes } from './ingest-route.js'
import { oauthMetadataRoutes } from './oauth-metadata.js'
import { registerRoute } from './oauth-register.js'
import { authorizeRoutes } from './oauth-authorize.js'
import { tokenRoutes } from './oauth-token.js'
import { uiRoutes } from './ui-route.js'
import type { Route } from './types.js'

/** The route table of `brain serve --http`. */
export const ROUTES: readonly Route[] = [healthRoute, mcpRoute, ...ingestRoutes(), ...apiRoutes(), ...oauthMetadataRoutes, registerRoute, ...authorizeRoutes, ...tokenRoutes, ...uiRoutes]
