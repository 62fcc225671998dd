import type { Database } from '../db/index.js'
import { NotAvailableError } from '../errors/index.js'

/** One HTTP request as the server logged it: never a token, never a body. */
export interface RequestLogRow {
  id: number
  created_at: string
  token_name: string | null
  oauth_client_id: string | null
  client_ip: string | null
  route: string
  method: string | null
  tool_name: string | null
  status: number
  error_code: string | null
  duration_ms: number | null
}

interface RequestLogFilter {
  limit: number
  /** Only requests that failed (status 400 and above). */
  errorsOnly?: boolean
  route?: string
}

/** The newest requests first. The request log is a table of the server engine. */
export async function listRequests(db: Database, filter: RequestLogFilter): Promise<RequestLogRow[]> {
  if (!db.capabilities.httpServer) {
    throw new NotAvailableError('server_engine_required', 'The request log exists only on the server engine (`brain serve --http`).', {
      hint: 'The embedded brain serves no remote requests, so it logs none.',
    })
  }
  const { rows } = await db.query<RequestLogRow>(
    `SELECT l.id, to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
            t.name AS token_name, l.oauth_client_id, l.client_ip, l.route, l.method, l.tool_name, l.status, l.error_code, l.duration_ms
       FROM mcp_request_log l LEFT JOIN access_tokens t ON t.id = l.token_id
      WHERE ($2::boolean IS NOT TRUE OR l.status >= 400) AND ($3::text IS NULL OR l.route = $3)
      ORDER BY l.id DESC LIMIT $1`,
    [filter.limit, filter.errorsOnly ?? false, filter.route ?? null],
  )
  return rows.map((r) => ({ ...r, id: Number(r.id), status: Number(r.status), duration_ms: r.duration_ms === null ? null : Number(r.duration_ms) }))
}
