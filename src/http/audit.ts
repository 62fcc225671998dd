import type { SqlExecutor } from '../db/types.js'
import type { Logger } from '../util/logger.js'

export interface AuditRow {
  tokenId: number | null
  clientIp: string
  route: string
  method: string | null
  toolName: string | null
  status: number
  errorCode: string | null
  durationMs: number
}

/** One row in mcp_request_log per request; a failing write is logged, never fails the request. */
export async function writeAudit(db: SqlExecutor, row: AuditRow, logger: Logger): Promise<void> {
  try {
    await db.query(
      `INSERT INTO mcp_request_log (token_id, client_ip, route, method, tool_name, status, error_code, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [row.tokenId, row.clientIp, row.route, row.method, row.toolName === null ? null : row.toolName.slice(0, 200), row.status, row.errorCode, Math.round(row.durationMs)],
    )
  } catch (err) {
    logger.error('audit row not written', { route: row.route, status: row.status, error: err instanceof Error ? err.message : String(err) })
  }
}
