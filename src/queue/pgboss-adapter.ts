import type { SqlExecutor, SqlParam } from '../db/types.js'

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

/**
 * Lets pg-boss run on either engine through our seam. PGLite's extended protocol takes one
 * statement per query, so parameterless multi-statement SQL goes to `exec` (pg-boss never reads
 * rows from those: they are its locked DDL and maintenance blocks).
 */
export function pgBossDb(db: SqlExecutor): PgBossDb {
  return {
    async executeSql(text, values) {
      if ((values === undefined || values.length === 0) && hasMultipleStatements(text)) {
        await db.exec(text)
        return { rows: [] }
      }
      const { rows } = await db.query(text, (values ?? []) as SqlParam[])
      return { rows }
    },
  }
}
