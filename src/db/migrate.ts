import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseError, isSqlStateError } from '../errors/index.js'
import { packageRoot } from '../util/package-root.js'
import type { CapabilityName, Database, SqlExecutor } from './types.js'

export interface Migration {
  version: number
  name: string
  sql: string
  /** Capabilities the engine must have; without them the migration is recorded as a no-op. */
  requires: CapabilityName[]
}

const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/
const MIGRATION_LOCK_KEY = 0x627261696e // "brain"

export function migrationsDir(): string {
  return join(packageRoot(), 'migrations')
}

/** The versions of the migrations in `dir`, from their file names alone. */
export function migrationVersions(dir = migrationsDir()): number[] {
  return readdirSync(dir)
    .map((file) => FILE_PATTERN.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .map((file) => ({ file, match: FILE_PATTERN.exec(file) }))
    .filter((entry): entry is { file: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ file, match }) => {
      const sql = readFileSync(join(dir, file), 'utf8')
      const requiresLine = /^--\s*requires:\s*(.+)$/m.exec(sql)
      const requires = (requiresLine?.[1] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean) as CapabilityName[]
      return { version: Number(match[1]), name: match[2]!, sql, requires }
    })
    .sort((a, b) => a.version - b.version)
}

const LEDGER_SQL = `CREATE TABLE IF NOT EXISTS brain_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied boolean NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`

async function appliedVersions(db: SqlExecutor): Promise<Set<number>> {
  const { rows } = await db.query<{ version: number }>('SELECT version FROM brain_migrations')
  return new Set(rows.map((r) => r.version))
}

async function ledgerExists(db: SqlExecutor): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass('brain_migrations') IS NOT NULL AS present`)
  return rows[0]?.present === true
}

async function ensureVectorAvailable(db: Database): Promise<void> {
  const { rows } = await db.query<{ installed: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS installed`)
  if (!rows[0]?.installed) {
    throw new DatabaseError('pgvector_missing', `The PostgreSQL server at ${db.location} lacks the pgvector extension ("vector").`, {
      hint: 'Install pgvector ≥ 0.5 on the server (Debian: build it from the pgvector source package, or run `npm run setup` on this machine), then run the command again.',
    })
  }
}

interface VectorPermission {
  present: boolean
  superuser: boolean
  needs_superuser: boolean
  can_create: boolean
  role: string
  database: string
}

/**
 * `CREATE EXTENSION vector` needs a superuser (pgvector is not a trusted extension) unless the
 * extension is already in this database; checked up front so the user learns what to ask for.
 */
async function ensureVectorCreatable(db: Database): Promise<void> {
  const { rows } = await db.query<VectorPermission>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS present,
            coalesce((SELECT rolsuper FROM pg_roles WHERE rolname = current_user), false) AS superuser,
            coalesce((SELECT bool_and(superuser) FROM pg_available_extension_versions WHERE name = 'vector'), true) AS needs_superuser,
            has_database_privilege(current_database(), 'CREATE') AS can_create,
            current_user::text AS role, current_database()::text AS database`,
  )
  const state = rows[0]
  if (!state || state.present || state.superuser) return
  if (!state.needs_superuser && state.can_create) return
  const permission = state.needs_superuser ? 'superuser rights (pgvector is not a trusted extension)' : `the CREATE privilege on database "${state.database}"`
  throw new DatabaseError(
    'vector_extension_permission',
    `The role "${state.role}" may not create the extension "vector" in database "${state.database}": that needs ${permission}, and the extension is not installed there yet.`,
    {
      hint: `Ask a superuser to run \`CREATE EXTENSION vector;\` in database "${state.database}" (for example \`psql -d ${state.database} -c 'CREATE EXTENSION vector;'\`), then run the command again.`,
    },
  )
}

/** Migration failures carry the database's own message and SQLSTATE, so the cause is never hidden. */
function migrationFailure(migration: Migration, err: unknown): DatabaseError {
  const cause = isSqlStateError(err) ? `${err.message} (SQLSTATE ${err.code})` : err instanceof Error ? err.message : String(err)
  return new DatabaseError('migration_failed', `Migration ${migration.version} (${migration.name}) failed: ${cause}`, {
    hint: 'Nothing of this migration was applied; earlier ones stay. Fix the cause and run the command again.',
    cause: err,
  })
}

export interface MigrateResult {
  applied: number[]
  skipped: number[]
}

/** Whether every migration of this build is applied; reads no migration's text. */
export async function schemaIsCurrent(db: SqlExecutor, versions = migrationVersions()): Promise<boolean> {
  if (!(await ledgerExists(db))) return false
  const done = await appliedVersions(db)
  return versions.every((v) => done.has(v))
}

/**
 * Brings the schema up to date. Cheap when nothing is pending (one query). Each migration runs
 * in its own transaction under an advisory lock, so concurrent openers apply it once.
 */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<MigrateResult> {
  const result: MigrateResult = { applied: [], skipped: [] }
  if (await ledgerExists(db)) {
    const done = await appliedVersions(db)
    if (migrations.every((m) => done.has(m.version))) return result
  }
  await ensureVectorAvailable(db)
  await ensureVectorCreatable(db)
  await db.exec(LEDGER_SQL)
  const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass('pages') IS NOT NULL AS present`)
  if (rows[0]?.present) await db.exec(readFileSync(join(migrationsDir(), 'bootstrap.sql'), 'utf8'))
  for (const migration of migrations) {
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY])
      if ((await appliedVersions(tx)).has(migration.version)) return
      const runnable = migration.requires.every((cap) => db.capabilities[cap])
      try {
        if (runnable) await tx.exec(migration.sql)
      } catch (err) {
        throw migrationFailure(migration, err)
      }
      await tx.query('INSERT INTO brain_migrations (version, name, applied) VALUES ($1, $2, $3)', [migration.version, migration.name, runnable])
      ;(runnable ? result.applied : result.skipped).push(migration.version)
    })
  }
  return result
}
