import type { SqlExecutor, SqlParam } from '../db/index.js'

/**
 * True when `sql` holds more than one statement: a `;` with more SQL after it, outside quotes,
 * dollar-quoted bodies and comments. pg-boss sends its DDL and maintenance that way.
 */
export function hasMultipleStatements(sql: string): boolean {
  let i = 0
  let sawSeparator = false
  while (i < sql.length) {
    const ch = sql[i]!
    if (sawSeparator && !/\s/.test(ch)) return true
    if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1)
      i = end < 0 ? sql.length : end + 1
      continue
    }
    if (ch === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end + 1
      continue
    }
    if (ch === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2)
      i = end < 0 ? sql.length : end + 2
      continue
    }
    if (ch === '$') {
      const tag = /^\$[A-Za-z_0-9]*\$/.exec(sql.slice(i))
      if (tag && !/^\$\d+\$?$/.test(tag[0])) {
        const end = sql.indexOf(tag[0], i + tag[0].length)
        i = end < 0 ? sql.length : end + tag[0].length
        continue
      }
    }
    if (ch === ';') sawSeparator = true
    i++
  }
  return false
}

/** The one method pg-boss needs from a database (its `db` constructor option). */
interface PgBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
}

/** pg-boss's seam, and the way to close it once pg-boss has stopped. */
interface ClosablePgBossDb extends PgBossDb {
  /** Waits for the statements under way; any pg-boss sends later is dropped. */
  close(): Promise<void>
}

/**
 * Lets pg-boss run on either engine through our seam. PGLite's extended protocol takes one
 * statement per query, so parameterless multi-statement SQL goes to `exec` (pg-boss never reads
 * rows from those: they are its locked DDL and maintenance blocks).
 *
 * pg-boss completes its internal cron jobs without awaiting the statement, so one can still be
 * sent after `stop()` resolved, onto a database the caller is about to close. Once closed, the
 * seam answers such a statement with no rows instead of handing it to a closed pool; what it
 * would have recorded (an internal job's completion) is redone by pg-boss's own maintenance.
 */
export function pgBossDb(db: SqlExecutor): ClosablePgBossDb {
  const running = new Set<Promise<unknown>>()
  let closed = false
  const run = async (text: string, values: unknown[] | undefined): Promise<{ rows: unknown[] }> => {
    if ((values === undefined || values.length === 0) && hasMultipleStatements(text)) {
      await db.exec(text)
      return { rows: [] }
    }
    const { rows } = await db.query(text, (values ?? []) as SqlParam[])
    return { rows }
  }
  return {
    executeSql(text, values) {
      if (closed) return Promise.resolve({ rows: [] })
      const statement = run(text, values)
      running.add(statement)
      void statement.then(
        () => running.delete(statement),
        () => running.delete(statement),
      )
      return statement
    },
    async close() {
      closed = true
      await Promise.allSettled([...running])
    },
  }
}
