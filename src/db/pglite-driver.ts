import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PGlite, PGliteOptions, Transaction } from '@electric-sql/pglite'
import { DatabaseError, diskErrorFrom, isBrainError } from '../errors/index.js'
import { startCallWatchdog } from './call-watchdog.js'
import { FreeSpaceGuard, mayWrite } from './free-space.js'
import { acquireFileLock } from './lock.js'
import { ReplaceablePglite } from './pglite-instance.js'
import { dataBytes, GROWTH_CHECK_MS, poolForBrain, watchPoolGrowth } from './pglite-pool.js'
import { PreparedStatements, type PgliteProtocol } from './pglite-prepared.js'
import { INT8_OID, NUMERIC_OID, parseInt8, type Database, type QueryOptions, type QueryResult, type SqlExecutor, type SqlParam } from './types.js'

const PARSERS = { [INT8_OID]: parseInt8, [NUMERIC_OID]: parseInt8 }

/**
 * The write-ahead log's bounds on the embedded engine. PGLite runs PostgreSQL as a single
 * process with no checkpointer, so the log is trimmed only when it outgrows max_wal_size: at the
 * default (1 GB) an import could hold hundreds of megabytes of log on disk. Capped, the log
 * stays within a few 16 MiB segments, which is what the free-space reserve and the room checked before a job (WAL_SEGMENT_BYTES) are sized for.
 */
const WAL_SETTINGS = ['-c', 'max_wal_size=64MB', '-c', 'min_wal_size=32MB']

type PgliteQueryable = Pick<PGlite, 'query' | 'exec'> | Transaction

/** Runs before a statement that may write; throws to refuse it. */
type WriteCheck = () => void

/** Marks a call under way for the watchdog; the result marks it done. */
type BeginCall = () => () => void

const NOT_WATCHED: BeginCall = () => () => undefined

/** Where a call runs: on the live instance (which may be replaced) or inside one transaction. */
type Runner = <T>(use: (target: PgliteQueryable) => Promise<T>) => Promise<T>

/**
 * Runs a statement through the brain's own use of the engine's protocol (pglite-prepared.ts): a
 * statement marked `prepared` as a named one, any other as the unnamed one. Only inside a
 * transaction, which holds the engine.
 */
type StatementRunner = <R>(text: string, params: readonly SqlParam[], named: boolean) => Promise<{ rows: R[]; affectedRows?: number }>

function executor(run: Runner, beforeWrite: WriteCheck | null, begin: BeginCall, statements: StatementRunner | null = null): SqlExecutor {
  return {
    async query<R extends object>(text: string, params: readonly SqlParam[] = [], options: QueryOptions = {}): Promise<QueryResult<R>> {
      if (beforeWrite && mayWrite(text)) beforeWrite()
      const done = begin()
      try {
        const result = statements ? await statements<R>(text, params, options.prepared === true) : await run((target) => target.query<R>(text, params as unknown[]))
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
        await run((target) => target.exec(sql))
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
  /**
   * A process that opens the brain for a few statements and exits. It loads pgvector, without
   * which no statement on a table with a vector index can be planned, but not pg_trgm, whose
   * library PostgreSQL loads only when a statement's condition could use a trigram index. A
   * small buffer pool spares zeroing 128 MB of memory. No call watchdog either: it is a thread of
   * its own to start, and an agent ends a hook that runs past its own timeout.
   */
  brief?: boolean
  /**
   * A process that runs one short command and exits: its statements read a few pages once, so a
   * small buffer pool serves it as well as a large one and spares zeroing 128 MB.
   */
  smallBufferPool?: boolean
  /**
   * The buffer pool of a long-lived open (a service, an import, a server), in bytes; absent: one
   * sized to the brain, grown when the brain outgrows it (pglite-pool.ts). A short open takes the
   * small pool, or this if it is smaller.
   */
  bufferPoolBytes?: number
  /** How often a pool sized to the brain checks whether the brain has outgrown it. */
  poolGrowthCheckMs?: number
  /** Told when the engine has been reopened with a larger pool. */
  onPoolGrown?: (bytes: number) => void
}

/**
 * A small buffer pool, for a brief open or a one-shot command (enough for the few pages their
 * statements read) and for an in-memory brain, whose pages are in memory already: PostgreSQL's
 * 128 MB pool would be a second copy, zeroed at every start (about 0.1–0.2 s of CPU).
 */
const SMALL_BUFFER_POOL_BYTES = 16 * 1024 * 1024

/** The pool an open starts with, and whether it is sized to the brain (and may grow). */
function bufferPoolOf(options: PgliteOpenOptions): { bytes: number; sized: boolean } {
  const small = options.brief === true || options.memory === true || options.smallBufferPool === true
  const configured = options.bufferPoolBytes
  if (small) return { bytes: Math.min(SMALL_BUFFER_POOL_BYTES, configured ?? SMALL_BUFFER_POOL_BYTES), sized: false }
  if (configured !== undefined) return { bytes: configured, sized: false }
  return { bytes: poolForBrain(dataBytes(options.dataDir)), sized: true }
}

/** The `shared_buffers` setting for a pool of `bytes`. */
function bufferPoolParams(bytes: number): string[] {
  // In kB, PostgreSQL's unit for the setting, never below its minimum of 16 pages.
  return ['-c', `shared_buffers=${Math.max(128, Math.floor(bytes / 1024))}kB`]
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

let compiledEarly: Promise<WasmModule | undefined> | null = null

/**
 * The PGLite module this process compiled, for a second engine in a worker thread: handed over,
 * it shares the compiled (and optimised) code instead of compiling all of it again.
 */
export function compiledPgliteModule(): Promise<WasmModule | undefined> {
  return compiledEarly ?? Promise.resolve(undefined)
}

/**
 * Starts compiling PGLite's WebAssembly for this process's next open, on V8's background threads,
 * so that a process with other start-up work before its open (loading its own modules) overlaps
 * the two.
 */
export function compilePgliteEarly(): void {
  compiledEarly ??= compilePgliteModule().catch(() => undefined)
}

interface PgliteModules {
  PGlite: typeof PGlite
  extensions: NonNullable<PGliteOptions['extensions']>
  protocol: PgliteProtocol
}

async function loadModules(brief: boolean): Promise<PgliteModules> {
  const [{ PGlite, protocol, parse }, { vector }, trigrams] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    brief ? null : import('@electric-sql/pglite/contrib/pg_trgm'),
  ])
  return {
    PGlite,
    extensions: trigrams ? { vector, pg_trgm: trigrams.pg_trgm } : { vector },
    protocol: { serialize: protocol.serialize, parseResults: parse.parseResults, parseDescribeStatementResults: parse.parseDescribeStatementResults },
  }
}

/** One WAL segment and a checkpoint: what PostgreSQL's recovery writes when a brain opens. */
const ROOM_TO_OPEN_BYTES = 24 * 1024 * 1024

/** Why the database did not open, as the error a person can act on. */
function openFailure(err: unknown, options: PgliteOpenOptions, guard: FreeSpaceGuard | null): Error {
  if (isBrainError(err)) return err
  const disk = diskErrorFrom(err, `while opening the embedded brain at ${options.dataDir}`)
  if (disk) return disk
  // Recovery after a crash writes a fresh 16 MiB WAL segment; PGLite reports that failing only
  // as "failed to initialize", so a disk below the reserve is named as the likely cause.
  try {
    guard?.checkToOpen()
  } catch (low) {
    if (isBrainError(low)) return low
  }
  return new DatabaseError('embedded_open_failed', `Could not open the embedded brain at ${options.dataDir}.`, {
    hint: 'Run `brain repair`: it tries PGLite recovery first, then restores the newest backup and keeps the damaged directory aside.',
    cause: err,
  })
}

/** Opens the embedded engine. Heavy modules load here, not at CLI start-up. */
export async function openPglite(options: PgliteOpenOptions): Promise<Database> {
  const lock = options.memory ? null : acquireFileLock(join(options.dataDir, '..', 'db.lock'), options.dataDir)
  const guard = options.freeSpace && options.freeSpace.reserveBytes > 0 ? new FreeSpaceGuard(options.freeSpace) : null
  // Opening is checked even with the reserve turned off: recovery cannot run without room.
  const openGuard = options.freeSpace ? new FreeSpaceGuard({ ...options.freeSpace, reserveBytes: Math.max(options.freeSpace.reserveBytes, ROOM_TO_OPEN_BYTES) }) : null
  let modules: PgliteModules
  let first: PGlite
  let pgliteWasmModule: WasmModule | undefined
  let pool: { bytes: number; sized: boolean }
  // What every instance on this data directory starts with, the first and any reopened one.
  const engineOptions = (poolBytes: number): PGliteOptions => ({
    ...(pgliteWasmModule ? { pgliteWasmModule } : {}),
    extensions: modules.extensions,
    parsers: PARSERS,
    startParams: [...modules.PGlite.defaultStartParams, ...WAL_SETTINGS, ...bufferPoolParams(poolBytes)],
  })
  try {
    const fromTemplate = !options.memory && options.templateDirectory !== undefined
    // Compiled here rather than inside PGLite, so that a compute lane (compute-lane.ts) can share the code.
    compiledEarly ??= compilePgliteModule().catch(() => undefined)
    const compiled = compiledEarly
    const loading = loadModules(options.brief === true)
    const copied = fromTemplate && copyTemplateDirectory(options.templateDirectory!, options.dataDir)
    const [loaded, compiledModule] = await Promise.all([loading, compiled])
    modules = loaded
    pgliteWasmModule = compiledModule
    if (!options.memory) mkdirSync(options.dataDir, { recursive: true })
    pool = bufferPoolOf(options)
    first = await modules.PGlite.create(options.memory ? undefined : options.dataDir, {
      ...engineOptions(pool.bytes),
      ...(options.template && !copied ? { loadDataDir: options.template } : {}),
    })
  } catch (err) {
    lock?.release()
    throw openFailure(err, options, openGuard)
  }
  const reopenWith = (poolBytes: number): Promise<PGlite> =>
    modules.PGlite.create(options.dataDir, engineOptions(poolBytes)).catch((err: unknown) => {
      throw openFailure(err, options, openGuard)
    })
  const instance = new ReplaceablePglite(first, {
    reopen: () => reopenWith(pool.bytes),
    beforeReopen: () => {
      if (options.memory) throw new DatabaseError('embedded_open_failed', 'An in-memory brain cannot be reopened after its engine stopped.')
      openGuard?.checkToOpen()
    },
  })
  let closed = false
  const watchdog =
    !options.memory && !options.brief && (options.callLimitMs ?? 0) > 0
      ? startCallWatchdog({ limitMs: options.callLimitMs!, location: options.dataDir, diskDir: options.freeSpace?.dir ?? options.dataDir })
      : null
  const begin = watchdog ? () => watchdog.begin() : NOT_WATCHED
  // Every call waits its turn for the one engine; how many have begun tells a long writer whether
  // another command used the engine while it let the thread go.
  let begun = 0
  const counted = <T>(call: () => Promise<T>): Promise<T> => {
    begun++
    return call()
  }
  const onLive: Runner = (use) => counted(() => instance.run((generation) => use(generation.pg)))
  const growth = pool.sized
    ? watchPoolGrowth({
        dataDir: options.dataDir,
        poolBytes: pool.bytes,
        everyMs: options.poolGrowthCheckMs ?? GROWTH_CHECK_MS,
        callsBegun: () => begun,
        idle: () => instance.idle,
        grow: async (bytes) => {
          const grown = await instance.replace(() => reopenWith(bytes))
          if (grown) {
            pool.bytes = bytes
            options.onPoolGrown?.(bytes)
          }
          return grown
        },
      })
    : null
  // Named statements live in one engine instance; a reopened engine starts without any.
  const statements = new WeakMap<PGlite, PreparedStatements>()
  const statementsOf = (pg: PGlite): PreparedStatements => {
    let kept = statements.get(pg)
    if (!kept) statements.set(pg, (kept = new PreparedStatements(pg, modules.protocol)))
    return kept
  }
  const lanes = (beforeWrite: WriteCheck | null) => {
    const base = executor(onLive, beforeWrite, begin)
    return {
      query: base.query,
      exec: base.exec,
      // Checked at each write inside: a read-only transaction (search sets its timeouts in one)
      // works on a full disk, and a refused write rolls the whole transaction back.
      transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>) =>
        counted(() =>
          instance.run((generation) =>
            generation.pg.transaction((tx) => {
              const probe = () => tx.query('SELECT 1')
              const statements: StatementRunner = (text, params, named) => {
                // As PGLite's own transaction refuses a statement once it has ended.
                if (tx.closed) return Promise.reject(new Error('Transaction is closed'))
                const kept = statementsOf(generation.pg)
                return generation.settle(named ? kept.query(text, params) : kept.unnamed(text, params), probe)
              }
              return fn(executor((use) => generation.settle(use(tx), probe), beforeWrite, begin, statements))
            }),
          ),
        ),
    }
  }
  const database: Database = {
    capabilities: { multiProcess: false, rowLevelSecurity: false, httpServer: false, notifications: true, autoAnalyze: false, parallelStatements: false },
    location: options.memory ? 'pglite:memory' : `pglite:${options.dataDir}`,
    ...lanes(guard ? () => guard.check() : null),
    dumpDataDir: () => instance.run(async (generation) => (await generation.pg.dumpDataDir('none')) as Blob),
    // Every statement waits for an open transaction, so the copy made inside one sees no write
    // half done; the checkpoint leaves little WAL for the restored copy to replay.
    snapshotDataDir: (read) =>
      counted(() =>
        instance.run((generation) =>
          generation.pg.transaction(async (tx) => {
            const value = await read(executor((use) => generation.settle(use(tx), () => tx.query('SELECT 1')), null, begin))
            await tx.exec('CHECKPOINT')
            return { read: value, dump: (await generation.pg.dumpDataDir('none')) as Blob }
          }),
        ),
      ),
    callsBegun: () => begun,
    ...(growth ? { expectGrowth: (bytes: number) => growth.expect(bytes) } : {}),
    async listen(channel, onPayload) {
      const unsubscribe = await instance.listen(channel, onPayload)
      return async () => {
        if (!closed) await unsubscribe()
      }
    },
    async close() {
      if (closed) return
      closed = true
      growth?.stop()
      try {
        await instance.close()
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
  database.checkRoom = (extraBytes) => guard.checkRoom(extraBytes)
  bookkeeping.checkRoom = database.checkRoom
  return database
}
