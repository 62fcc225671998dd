import type { Database, SqlExecutor, SqlParam } from '../../src/db/types.js'

/** Runs `fn` with db.query recording the last SQL and parameters it is given (the statement that answers). */
export async function captureLastQuery(db: Database, fn: (db: SqlExecutor) => Promise<unknown>): Promise<{ sql: string; params: readonly SqlParam[] }> {
  let seen: { sql: string; params: readonly SqlParam[] } | undefined
  const spy: SqlExecutor = {
    query: (sql, params) => {
      seen = { sql, params: params ?? [] }
      return db.query(sql, params)
    },
    exec: (sql) => db.exec(sql),
  }
  await fn(spy)
  if (seen === undefined) throw new Error('no query was run')
  return seen
}
