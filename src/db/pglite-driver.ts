import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PGlite, PGliteOptions, Transaction } from '@electric-sql/pglite'
import { DatabaseError, diskErrorFrom, isBrainError } from '../errors/index.js'
import { startCallWatchdog } from './call-watchdog.js'
import { FreeSpaceGuard, mayWrite } from './free-space.js'
import { acquireFileLock } from './lock.js'
import { INT8_OID, NUMERIC_OID, parseInt8, type Database, type QueryResult, type SqlExecutor, type SqlParam } from './types.js'

const PARSERS = { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseInt8 }

type PgliteQueryable = Pick<PGlite, 'query' | 'exec'> | Transaction

/** Runs before a statement that may write; throws to refuse it. */
type WriteCheck = () => void

/** Marks a call under way for the watchdog; the result marks it done. */
type BeginCall = () => () => void

const NOT_WATCHED: BeginCall = () => () => undefined

function executor(target: PgliteQueryable, beforeWrite: WriteCheck | null, begin: BeginCall): SqlExecutor {
  return {
    async query<R extends object>(text: string, params: readonly SqlParam[] = []): Promise<QueryResult<R>> {
      if (beforeWrite && mayWrite(text)) beforeWrite()
      const done = begin()
      try {
        const result = await target.query<R>(text, params as unknown[])
        // PGLite reports affectedRows 0 for a SELECT; node-postgres counts the rows it returned.
        // The larger of the two is what node-postgres would say for every kind of statement.
        return { rows: result.rows, rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) }
      } finally {
        done()
      }
    },
    async exec(sql: string): Promise<void> {
      beforeWrite?.()
      const done = begin()
      try {
        await target.exec(sql)
      } finally {
        done()
      }
    },
  }
}

interface PgliteOpenOptions {
  dataDir: string
  /** In-memory database for tests; no lock file is taken. */
  memory?: boolean
  /** A data-directory dump to start from instead of running initdb (tests use a migrated one). */
  template?: Blob
  /** A closed data directory a new brain starts as a copy of (faster than unpacking a dump). */
  templateDirectory?: string
  /**
   * Refuse writes while the filesystem holding `dir` has fewer than `reserveBytes` free, so
   * PGLite never meets a full disk in the middle of a write or a checkpoint.
   */
  freeSpace?: { dir: string; reserveBytes: number; read?: (dir: string) => number }
  /** A call that has not returned after this long ends the process (0: never); see call-watchdog.ts. */
  callLimitMs?: number
}

/**
 * A plain recursive copy, one file after the other: cpSync stats every entry again, and copies
 * run side by side cost the kernel more than they save on two cores.
 */
function copyTree(from: string, to: string): void {
  mkdirSync(to)
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name))
    else copyFileSync(join(from, entry.name), join(to, entry.name), constants.COPYFILE_FICLONE)
  }
}

/**
 * Makes dataDir a copy of the template directory when it does not hold a database yet. The copy
 * is made beside it and renamed into place, so a copy cut short never looks like a brain.
 * Returns false when dataDir already has content of its own, which is then left alone.
 */
function copyTemplateDirectory(templateDirectory: string, dataDir: string): boolean {
  if (existsSync(dataDir)) {
    if (readdirSync(dataDir).length > 0) return false
    rmdirSync(dataDir)
  }
  const staging = `${dataDir}.copy-${process.pid}`
  rmSync(staging, { recursive: true, force: true })
  try {
    copyTree(templateDirectory, staging)
    renameSync(staging, dataDir)
  } catch (err) {
    rmSync(staging, { recursive: true, force: true })
    throw err
  }
  return true
}

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>
/** The one WebAssembly call used here; the project's type libraries leave out the browser's WebAssembly. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }).WebAssembly

/** PGLite's WebAssembly module, compiled on V8's background threads while the template is copied. */
async function compilePgliteModule(): Promise<WasmModule> {
  return wasm.compile(await readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'))))
}

/** Opens the embedded engine. Heavy modules load here, not at CLI start-up. */
export async function openPglite(options: PgliteOpenOptions): Promise<Database> {
  const lock = options.memory ? null : acquireFileLock(join(options.dataDir, '..', 'db.lock'), options.dataDir)
  let pg: PGlite
  try {
    const fromTemplate = !options.memory && options.templateDirectory !== undefined
    const compiled = fromTemplate ? compilePgliteModule().catch(() => undefined) : undefined
    const modules = Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite-pgvector'), import('@electric-sql/pglite/contrib/pg_trgm')])
    const copied = fromTemplate && copyTemplateDirectory(options.templateDirectory!, options.dataDir)
    const [[{ PGlite }, { vector }, { pg_trgm }], pgliteWasmModule] = await Promise.all([modules, compiled])
    if (!options.memory) mkdirSync(options.dataDir, { recursive: true })
    pg = await PGlite.create(options.memory ? undefined : options.dataDir, {
      ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
      extensions: { vector, pg_trgm },
      parsers: PARSERS,
      ...(options.template && !copied ? { loadDataDir: options.template } : {}),
    })
  } catch (err) {
    lock?.release()
    if (isBrainError(err)) throw err
    const disk = diskErrorFrom(err, `while opening the embedded brain at ${options.dataDir}`)
    if (disk) throw disk
    throw new DatabaseError('embedded_open_failed', `Could not open the embedded brain at ${options.dataDir}.`, {
      hint: 'Run `brain repair`: it tries PGLite recovery first, then restores the newest backup and keeps the damaged directory aside.',
      cause: err,
    })
  }
  const guard = options.freeSpace && options.freeSpace.reserveBytes > 0 ? new FreeSpaceGuard(options.freeSpace) : null
  let closed = false
  const watchdog = !options.memory && (options.callLimitMs ?? 0) > 0 ? startCallWatchdog({ limitMs: options.callLimitMs!, location: options.dataDir }) : null
  const begin = watchdog ? () => watchdog.begin() : NOT_WATCHED
  const lanes = (beforeWrite: WriteCheck | null) => {
    const base = executor(pg, beforeWrite, begin)
    return {
      query: base.query,
      exec: base.exec,
      // Checked at each write inside: a read-only transaction (search sets its timeouts in one)
      // works on a full disk, and a refused write rolls the whole transaction back.
      transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>) => pg.transaction((tx) => fn(executor(tx, beforeWrite, begin))),
    }
  }
  const database: Database = {
    capabilities: { multiProcess: false, rowLevelSecurity: false, httpServer: false, notifications: true, autoAnalyze: false, parallelStatements: false },
    location: options.memory ? 'pglite:memory' : `pglite:${options.dataDir}`,
    ...lanes(guard ? () => guard.check() : null),
    dumpDataDir: async () => (await pg.dumpDataDir('none')) as Blob,
    // Every statement waits for an open transaction, so the copy made inside one sees no write
    // half done; the checkpoint leaves little WAL for the restored copy to replay.
    snapshotDataDir: (read) =>
      pg.transaction(async (tx) => {
        const value = await read(executor(tx, null, begin))
        await tx.exec('CHECKPOINT')
        return { read: value, dump: (await pg.dumpDataDir('none')) as Blob }
      }),
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
        await watchdog?.stop()
        lock?.release()
      }
    },
  }
  if (!guard) return database
  // A view, not a second connection: same database, same close, a lower free-space floor.
  const bookkeeping: Database = { ...database, ...lanes(() => guard.checkBookkeeping()) }
  bookkeeping.forBookkeeping = () => bookkeeping
  database.forBookkeeping = () => bookkeeping
  return database
}
