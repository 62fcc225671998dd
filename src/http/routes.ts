import { apiRoutes } from './api-route.js'
import { healthRoute } from './health-route.js'
import { mcpRoute } from './mcp-route.js'
import { ingestRoutes } from './ingest-route.js'
import type { Route } from './types.js'

/** The route table of `brain serve --http`. */
export const ROUTES: readonly Route[] = [healthRoute, mcpRoute, ...ingestRoutes(), ...apiRoutes()]
