import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { DatabaseError, diskErrorFrom, isBrainError } from '../errors/index.js'
import { acquireFileLock } from './lock.js'
import { INT8_OID, NUMERIC_OID, parseInt8, type Database, type QueryResult, type SqlExecutor, type SqlParam } from './types.js'

const PARSERS = { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseInt8 }

type PgliteQueryable = Pick<PGlite, 'query' | 'exec'> | Transaction

function executor(target: PgliteQueryable): SqlExecutor {
  return {
    async query<R extends object>(text: string, params: readonly SqlParam[] = []): Promise<QueryResult<R>> {
      const result = await target.query<R>(text, params as unknown[])
      // PGLite reports affectedRows 0 for a SELECT; node-postgres counts the rows it returned.
      // The larger of the two is what node-postgres would say for every kind of statement.
      return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) }
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql)
    },
  }
}

interface PgliteOpenOptions {
  dataDir: string
  /** In-memory database for tests; no lock file is taken. */
  memory?: boolean
  /** A data-directory dump to start from instead of running initdb (tests use a migrated one). */
  template?: Blob
}

/** Opens the embedded engine. Heavy modules load here, not at CLI start-up. */
export async function openPglite(options: PgliteOpenOptions): Promise<Database> {
  const lock = options.memory ? null : acquireFileLock(join(options.dataDir, '..', 'db.lock'), options.dataDir)
  let pg: PGlite
  try {
    if (!options.memory) mkdirSync(options.dataDir, { recursive: true })
    const [{ PGlite }, { vector }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector'), import('@electric-sql/pglite/contrib/pg_trgm')])
    pg = await PGlite.create(options.memory ? undefined : options.dataDir, {
      extensions: { vector, pg_trgm },
      parsers: PARSERS,
      ...(options.template ? { loadDataDir: options.template } : {}),
    })
  } catch (err) {
    lock?.release()
    if (isBrainError(err)) throw err
    const disk = diskErrorFrom(err, `while opening the embedded brain at ${options.dataDir}`)
    if (disk) throw disk
    throw new DatabaseError('embedded_open_failed', `Could not open the embedded brain at ${options.dataDir}.`, {
      hint: 'If the directory is damaged, move it aside and run `brain init` again.',
      cause: err,
    })
  }
  const base = executor(pg)
  let closed = false
  return {
    capabilities: { multiProcess: false, rowLevelSecurity: false, httpServer: false, notifications: true, autoAnalyze: false },
    location: options.memory ? 'pglite:memory' : `pglite:${options.dataDir}`,
    query: base.query,
    exec: base.exec,
    transaction: (fn) => pg.transaction((tx) => fn(executor(tx))),
    dumpDataDir: async () => (await pg.dumpDataDir('none')) as Blob,
    async listen(channel, onPayload) {
      const unsubscribe = await pg.listen(channel, onPayload)
      return async () => {
        if (!closed) await unsubscribe()
      }
    },
    async close() {
      if (closed) return
      closed = true
      try {
        await pg.close()
      } finally {
        lock?.release()
      }
    },
  }
}
