import type { SqlExecutor } from '../db/index.js'
import type { Logger } from '../util/index.js'

export interface AuditRow {
  tokenId: number | null
  clientIp: string
  route: string
  method: string | null
  toolName: string | null
  status: number
  errorCode: string | null
  durationMs: number
  /** The OAuth client of the request's token, or of the OAuth endpoint's request. */
  oauthClientId?: string | null
}

/** Rows written by one INSERT at most; a larger backlog is written in several. */
const MAX_ROWS_PER_INSERT = 200

interface Waiting {
  row: AuditRow
  logger: Logger
  written: () => void
}

/**
 * Group commit for audit rows: while one INSERT is in flight, the rows of the requests that
 * finish meanwhile wait and go together in the next one. A lone request is written at once, so
 * nothing waits on a timer; a busy server writes one statement per batch instead of per request.
 */
class AuditBatcher {
  private waiting: Waiting[] = []
  private draining = false

  constructor(private readonly db: SqlExecutor) {}

  write(row: AuditRow, logger: Logger): Promise<void> {
    return new Promise((written) => {
      this.waiting.push({ row, logger, written })
      if (!this.draining) void this.drain()
    })
  }

  private async writeAlone(w: Waiting): Promise<void> {
    try {
      await insertRows(this.db, [w.row])
    } catch (err) {
      w.logger.error('audit row not written', { route: w.row.route, status: w.row.status, error: err instanceof Error ? err.message : String(err) })
    }
  }

  private async drain(): Promise<void> {
    this.draining = true
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_ROWS_PER_INSERT)
        try {
          await insertRows(
            this.db,
            batch.map((w) => w.row),
          )
        } catch {
          // One bad row (say, a token deleted meanwhile) must not cost the others theirs.
          for (const w of batch) await this.writeAlone(w)
        }
        for (const w of batch) w.written()
      }
    } finally {
      this.draining = false
    }
  }
}

async function insertRows(db: SqlExecutor, rows: readonly AuditRow[]): Promise<void> {
  await db.query(
    `INSERT INTO mcp_request_log (token_id, client_ip, route, method, tool_name, status, error_code, duration_ms, oauth_client_id)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::int[], $9::text[])`,
    [
      rows.map((r) => r.tokenId),
      rows.map((r) => r.clientIp),
      rows.map((r) => r.route),
      rows.map((r) => r.method),
      rows.map((r) => (r.toolName === null ? null : r.toolName.slice(0, 200))),
      rows.map((r) => r.status),
      rows.map((r) => r.errorCode),
      rows.map((r) => Math.round(r.durationMs)),
      rows.map((r) => r.oauthClientId ?? null),
    ],
    { prepared: true },
  )
}

const batchers = new WeakMap<SqlExecutor, AuditBatcher>()

/**
 * One row in mcp_request_log per request, written before the request is answered; a failing
 * write is logged, never fails the request.
 */
export function writeAudit(db: SqlExecutor, row: AuditRow, logger: Logger): Promise<void> {
  let batcher = batchers.get(db)
  if (!batcher) batchers.set(db, (batcher = new AuditBatcher(db)))
  return batcher.write(row, logger)
}
