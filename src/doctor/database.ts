import type { SqlExecutor } from '../db/index.js'
import { schemaVersion } from '../releases/upgrade/index.js'
import { check, type DoctorCheck } from './types.js'

export async function checkConnection(db: SqlExecutor & { location: string }, engine: string): Promise<DoctorCheck> {
  const { rows } = await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`)
  return check('database', 'ok', `${engine} at ${db.location} (PostgreSQL ${rows[0]?.version ?? 'unknown'})`)
}

/** The database's migration ledger table against the files this build ships. */
export async function checkSchema(db: SqlExecutor): Promise<DoctorCheck> {
  const state = await schemaVersion(db)
  if (state.missing.length > 0) {
    return check('schema_version', 'fail', `migrations not applied: ${state.missing.join(', ')} (run any brain command to apply them; if one fails its error says why)`)
  }
  if (state.unknown.length > 0) {
    return check('schema_version', 'warn', `the database has migrations this build does not know (${state.unknown.join(', ')}): a newer brain wrote them; upgrade brain`)
  }
  return check('schema_version', 'ok', `at migration ${state.applied} (${state.files} migration files, all applied)`)
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split('.').map((p) => Number.parseInt(p, 10))
  return a > major || (a === major && b >= minor)
}

export async function checkPgvector(db: SqlExecutor): Promise<DoctorCheck> {
  const { rows } = await db.query<{ version: string }>(`SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`)
  const version = rows[0]?.version
  if (!version) return check('pgvector', 'fail', 'the vector extension is not installed in this database; semantic search cannot work')
  if (!versionAtLeast(version, 0, 5)) return check('pgvector', 'warn', `pgvector ${version} is older than 0.5 (no HNSW index); upgrade the extension`)
  return check('pgvector', 'ok', `pgvector ${version}`)
}
