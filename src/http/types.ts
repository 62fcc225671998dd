import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import type { ToolSelection } from '../operations/index.js'
import type { Logger } from '../util/index.js'
import type { TokenBucketLru } from './token-bucket.js'
import type { UiSessions } from './ui-sessions.js'

/** What every route handler may use; one instance per server. */
export interface HttpDeps {
  db: Database
  config: Config
  logger: Logger
  version: string
  /** Pre-auth bucket keyed by client IP. */
  ipBuckets: TokenBucketLru
  /** Post-auth bucket keyed by token id. */
  tokenBuckets: TokenBucketLru
  /**
   * The local web app's browser sessions (`brain ui` on the embedded engine): the API then takes
   * a session cookie instead of a token, and keeps no request log (that is the server's).
   */
  uiSessions?: UiSessions
  /** The tool profile POST /mcp lists and runs (`serve --tools`); the whole catalogue when absent. */
  mcpTools?: ToolSelection
}

export interface RouteRequest {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Resolved with BRAIN_HTTP_TRUST_PROXY in mind. */
  clientIp: string
  deps: HttpDeps
}

/** One entry of the route table: adding a route is adding one of these. */
export interface Route {
  method: 'GET' | 'POST'
  path: string
  /** Every request to this path leaves a row in the request log, refused ones included. */
  audited?: boolean
  /** A public document without credentials (discovery metadata): any browser origin may read it. */
  publicCors?: boolean
  handle(request: RouteRequest): Promise<void>
}
