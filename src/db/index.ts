/**
 * The database seam: one executor interface, two drivers (PGLite embedded, PostgreSQL server),
 * migrations, the embedded lock, a consistent copy of the embedded data directory and the check
 * that it opens, and the engine helpers. Nothing else knows which engine runs.
 * May import: errors, util.
 */
export type { Database, SqlExecutor, QueryResult, Capabilities, CapabilityName, SqlParam } from './types.js'
export { openDatabase, type OpenOptions } from './open.js'
export { migrate, loadMigrations, type Migration, type MigrateResult } from './migrate.js'
export { refreshPlannerStatistics } from './statistics.js'
export { validatePostgresUrl, redactUrl } from './pg-driver.js'
export { isTransientConnectError, withConnectRetry } from './connect-retry.js'
export { ENGINE_KINDS, isEngineKind, engineKindOf, usesServer, engineLocation, engineKey, type EngineKind } from './engine.js'
export type { EngineConfig } from './types.js'
export { bookkeepingOf, WAL_SEGMENT_BYTES } from './types.js'
export { acquireFileLock, type FileLock } from './lock.js'
export { openDataDir, dataDirPages } from './data-dir.js'
export { openComputeLane, type ComputeLane } from './compute-lane.js'
