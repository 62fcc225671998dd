import { loadMigrations, type SqlExecutor } from '../../db/index.js'

export interface SchemaVersion {
  /** Highest migration recorded in the database's ledger table; null before the first. */
  applied: number | null
  /** Highest migration file this build ships. */
  latest: number
  files: number
  /** Files not recorded in the database. */
  missing: number[]
  /** Recorded in the database but unknown to this build (a newer brain wrote them). */
  unknown: number[]
}

/** The database's migration ledger table compared with the files in `migrations/`. */
export async function schemaVersion(db: SqlExecutor): Promise<SchemaVersion> {
  const files = loadMigrations().map((m) => m.version)
  const { rows: present } = await db.query<{ present: boolean }>(`SELECT to_regclass('brain_migrations') IS NOT NULL AS present`)
  const recorded = present[0]?.present ? (await db.query<{ version: number }>('SELECT version FROM brain_migrations ORDER BY version')).rows.map((r) => Number(r.version)) : []
  const recordedSet = new Set(recorded)
  const fileSet = new Set(files)
  return {
    applied: recorded.length > 0 ? recorded[recorded.length - 1]! : null,
    latest: files[files.length - 1] ?? 0,
    files: files.length,
    missing: files.filter((v) => !recordedSet.has(v)),
    unknown: recorded.filter((v) => !fileSet.has(v)),
  }
}
