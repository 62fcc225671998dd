import type { Database, SqlExecutor } from '../db/types.js'
import { DatabaseError } from '../errors/index.js'

/** Every search statement runs under this limit, scoped to its own transaction. */
export const SEARCH_STATEMENT_TIMEOUT_MS = 8000

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014'

export interface SearchTransactionOptions {
  timeoutMs?: number
  /**
   * HNSW candidate list size for vector statements in this transaction. pgvector returns at most
   * ef_search rows from an index scan, so it must be at least the statement's LIMIT.
   */
  efSearch?: number
}

/** hnsw.ef_search accepts 1–1000. */
export const MAX_EF_SEARCH = 1000

/**
 * Runs `fn` in a transaction whose statement_timeout is set with SET LOCAL semantics
 * (set_config(..., true)), so the session's own timeout is back in force after it. For vector
 * statements it also raises hnsw.ef_search and, on pgvector 0.8 or later, turns on iterative
 * index scans, so that filters and excludes applied after the index do not starve the result.
 */
export async function withSearchTransaction<T>(db: Database, fn: (tx: SqlExecutor) => Promise<T>, options: SearchTransactionOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? SEARCH_STATEMENT_TIMEOUT_MS
  try {
    return await db.transaction(async (tx) => {
      // Keyword transactions run only the keyword statements, which are prepared
      // (QueryOptions.prepared) and whose plan does not depend on the query's words (a bitmap
      // scan of the full-text index either way): they take the generic plan from their first run
      // instead of planning five times per connection. Never for vector statements: the setting
      // reaches unnamed statements too, and a generic nearest-neighbour plan cannot use HNSW.
      if (options.efSearch === undefined) {
        await tx.query(`SELECT set_config('statement_timeout', $1, true), set_config('plan_cache_mode', 'force_generic_plan', true)`, [String(timeoutMs)])
      } else {
        const ef = Math.max(40, Math.min(MAX_EF_SEARCH, Math.ceil(options.efSearch)))
        await tx.query(
          `SELECT set_config('statement_timeout', $1, true), set_config('hnsw.ef_search', $2, true),
             CASE WHEN (SELECT string_to_array(extversion, '.')::int[] >= '{0,8}' FROM pg_extension WHERE extname = 'vector')
                  THEN set_config('hnsw.iterative_scan', 'relaxed_order', true) END`,
          [String(timeoutMs), String(ef)],
        )
      }
      return fn(tx)
    })
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === QUERY_CANCELED) {
      throw new DatabaseError('search_timeout', `The search took longer than ${timeoutMs / 1000} s and was cancelled.`, {
        hint: 'Narrow the query (more specific words, --lang, --source, --symbol-kind) or lower --offset.',
        cause: err,
      })
    }
    throw err
  }
}
