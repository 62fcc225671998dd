/**
 * The HTTP server of `brain serve --http` (server engine only): a small route table behind
 * CORS and graceful shutdown, and the reusable pieces of the request pipeline.
 * May import: activity, auth, config, db, errors, intake/ingestion, mcp, oauth, operations, pages,
 * queue, util.
 */
export { createBrainHttpServer, type BrainHttpServer } from './server.js'
export { ROUTES } from './routes.js'
export { healthRoute } from './health-route.js'
export { mcpRoute } from './mcp-route.js'
export { TokenBucketLru, type BucketOptions, type TakeResult } from './token-bucket.js'
export { mcpBuckets, BUCKET_MAX_KEYS } from './limits.js'
export { readBodyCapped, type BodyResult } from './body.js'
export { clientIp } from './client-ip.js'
export { applyCors, type CorsVerdict } from './cors.js'
export { sendJson } from './respond.js'
export { writeAudit, type AuditRow } from './audit.js'
export type { HttpDeps, Route, RouteRequest } from './types.js'
export { UiSessions } from './ui-sessions.js'
