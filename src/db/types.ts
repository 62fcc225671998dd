/**
 * The database seam. Every repository module is written once against SqlExecutor; the two
 * drivers (PGLite, PostgreSQL) differ only in how they connect and in their capabilities.
 */
export interface QueryResult<R> {
  rows: R[]
  rowCount: number
}

export type SqlParam = string | number | boolean | null | Date | readonly string[] | readonly number[] | object

export interface QueryOptions {
  /**
   * The statement runs often with different parameters: the engine keeps it parsed and planned
   * (a named prepared statement, per connection on the server, per engine instance embedded), so
   * repeats skip parsing and, once PostgreSQL's plan cache settles on a generic plan, planning.
   * The embedded engine names it inside a transaction only, where the transaction holds the
   * engine; elsewhere it runs as an unnamed statement.
   */
  prepared?: boolean
}

export interface SqlExecutor {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly SqlParam[], options?: QueryOptions): Promise<QueryResult<R>>
  /** Runs parameterless, possibly multi-statement SQL. */
  exec(sql: string): Promise<void>
}

/** What an engine can do; code asks these instead of the engine's name. */
export interface Capabilities {
  /** Several processes may open the database at once (workers, servers). */
  multiProcess: boolean
  rowLevelSecurity: boolean
  /** The access-token table and the HTTP transport exist. */
  httpServer: boolean
  /** LISTEN/NOTIFY reaches other processes. */
  notifications: boolean
  /** The engine keeps planner statistics itself (autovacuum's analyze). */
  autoAnalyze: boolean
  /** Statements of separate transactions run at the same time (a pool of server connections); on one embedded connection they take turns. */
  parallelStatements: boolean
}

export type CapabilityName = keyof Capabilities

export interface Database extends SqlExecutor {
  readonly capabilities: Capabilities
  /** Human-readable location without credentials, for messages and doctor output. */
  readonly location: string
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  close(): Promise<void>
  /** A copy of the whole database, where the engine can make one cheaply (embedded engine). */
  dumpDataDir?: () => Promise<Blob>
  /**
   * A copy of the whole data directory taken while no other statement runs, with what `read`
   * saw at that same instant (embedded engine: a backup of a brain in use).
   */
  snapshotDataDir?: <T>(read: (tx: SqlExecutor) => Promise<T>) => Promise<{ dump: Blob; read: T }>
  /**
   * The same database for the small writes that record what happened (job outcomes, progress,
   * the queue's own upkeep): where the engine keeps a free-space reserve, these may use part of
   * it, so a write refused on a nearly full disk still reaches whoever waits for it.
   */
  forBookkeeping?: () => Database
  /**
   * Throws disk_full unless there is room for the free-space reserve and `extraBytes` more (the
   * engine's next log segment): checked before work that writes a lot, where the engine keeps a
   * reserve.
   */
  checkRoom?: (extraBytes: number) => void
  /**
   * How many calls (statements, transactions) have begun on this database so far, where
   * statements take turns on one engine: a long writer that sees the count grow while it lets the
   * thread go knows another command is using the engine.
   */
  callsBegun?: () => number
  /**
   * Told before writes expected to add about `bytes` to the brain (a large import): an embedded
   * engine whose buffer pool is sized to the brain takes the full pool now, while nothing runs,
   * rather than partway through.
   */
  expectGrowth?: (bytes: number) => Promise<void>
}

/** PostgreSQL's write-ahead log grows a whole segment of this size at a time. */
export const WAL_SEGMENT_BYTES = 16 * 1024 * 1024

/** Uniform JS types for both drivers: int8 and numeric as numbers, timestamps as Date. */
export const INT8_OID = 20
export const NUMERIC_OID = 1700
export function parseInt8(value: string): number {
  return Number(value)
}

/** Which engine to open and how; the configuration module fills it in from the environment. */
export interface EngineConfig {
  kind: 'pglite' | 'postgres'
  /** PGLite data directory (embedded engine). */
  dataDir: string
  /** PostgreSQL connection URL (server engine). */
  url: string | null
  statementTimeoutMs: number
  idleTxTimeoutMs: number
  /** 0 leaves client_connection_check_interval at the server's default (off). */
  clientCheckIntervalMs: number
  retryConnect: boolean
  /** Embedded engine: writes are refused while fewer bytes are free on the data directory's disk (0 or absent: never). */
  diskReserveBytes?: number
  /** Embedded engine: the buffer pool of a long-lived open, in bytes (absent: PostgreSQL's 128 MB). */
  bufferPoolBytes?: number
}

/** The database to record outcomes through: its bookkeeping view where it has one. */
export function bookkeepingOf(db: Database): Database {
  return db.forBookkeeping?.() ?? db
}
