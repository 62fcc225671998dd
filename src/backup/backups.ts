import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { Database, EngineConfig, SqlExecutor } from '../db/index.js'
import { BACKUP_EXTENSION, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, readBackupManifest, writeBackupFile, type BackupMember } from './archive.js'
import { findPgProgram, runPgProgram } from './pg-programs.js'

/**
 * `brain backup`: one file holding a consistent copy of the database (the embedded engine's data
 * directory, or pg_dump's custom format on the server engine), the brain's config.json and the
 * migration ledger, with a manifest of checksums. Taken while the brain stays in use.
 */

export const DATABASE_MEMBER = { pglite: 'database.tar.gz', postgres: 'database.pgdump' } as const
export const CONFIG_MEMBER = 'config.json'
const LEDGER_MEMBER = 'migrations.json'
/** Backups the autopilot makes and prunes; others in the folder (kept-aside copies) are never pruned. */
const ROUTINE_PREFIX = 'brain-'

export interface BackupPlace {
  /** `$BRAIN_HOME`: where config.json is, and `backups/` beneath it. */
  home: string
  engine: EngineConfig
  brainVersion: string
  /** The environment the server engine's pg_dump runs with (PATH, locale). */
  env: Readonly<Record<string, string | undefined>>
}

interface BackupResult {
  path: string
  bytes: number
  pages: number
  engine: 'pglite' | 'postgres'
  created_at: string
  content_hash_summary: string
  schema_version: number
}

export interface BrainState {
  pages: number
  content_hash_summary: string
  schema_version: number
  ledger: Array<{ version: number; name: string; applied: boolean; applied_at: string }>
}

export function backupsDir(home: string): string {
  return join(home, 'backups')
}

/** What a backup's manifest records of the database, read in the same snapshot as the copy. */
export async function readBrainState(db: SqlExecutor): Promise<BrainState> {
  const { rows } = await db.query<{ pages: number; summary: string }>(
    `SELECT count(*)::int AS pages,
            encode(sha256(convert_to(coalesce(string_agg(source_id || ':' || slug || ':' || content_hash, E'\\n' ORDER BY source_id, slug), ''), 'UTF8')), 'hex') AS summary
     FROM pages`,
  )
  const ledger = await db.query<{ version: number; name: string; applied: boolean; applied_at: Date }>('SELECT version, name, applied, applied_at FROM brain_migrations ORDER BY version')
  return {
    pages: rows[0]!.pages,
    content_hash_summary: rows[0]!.summary,
    schema_version: ledger.rows.filter((r) => r.applied).reduce((max, r) => Math.max(max, r.version), 0),
    ledger: ledger.rows.map((r) => ({ version: r.version, name: r.name, applied: r.applied, applied_at: new Date(r.applied_at).toISOString() })),
  }
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '')
}

/** Where a backup goes: `--to` a file or an existing folder, else `$BRAIN_HOME/backups/`. */
function targetPath(place: BackupPlace, to: string | undefined, prefix: string, createdAt: Date): string {
  const name = `${prefix}${stamp(createdAt)}${BACKUP_EXTENSION}`
  if (to === undefined) {
    mkdirSync(backupsDir(place.home), { recursive: true, mode: 0o700 })
    return join(backupsDir(place.home), name)
  }
  if (existsSync(to) && statSync(to).isDirectory()) return join(to, name)
  return to
}

async function copyDatabase(db: Database, place: BackupPlace): Promise<{ state: BrainState; member: BackupMember; engine: 'pglite' | 'postgres' }> {
  if (db.snapshotDataDir) {
    const { dump, read } = await db.snapshotDataDir(readBrainState)
    const data = await promisify(gzip)(Buffer.from(await dump.arrayBuffer()), { level: 6 })
    return { state: read, member: { name: DATABASE_MEMBER.pglite, data }, engine: 'pglite' }
  }
  const program = findPgProgram('pg_dump', place.env.PATH)
  // pg_dump reads the snapshot this transaction exported, so the counts in the manifest describe
  // exactly what the dump holds however many writers keep going.
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    const { rows } = await tx.query<{ snapshot: string }>('SELECT pg_export_snapshot() AS snapshot')
    const state = await readBrainState(tx)
    const data = await runPgProgram({ program, args: ['--format=custom', `--snapshot=${rows[0]!.snapshot}`, '--no-owner', '--no-privileges'], url: place.engine.url ?? '', env: place.env })
    return { state, member: { name: DATABASE_MEMBER.postgres, data }, engine: 'postgres' as const }
  })
}

/** Makes one backup file; `prefix` names it (routine backups are the ones pruning may remove). */
export async function createBackup(db: Database, place: BackupPlace, options: { to?: string; prefix?: string } = {}): Promise<BackupResult> {
  const { state, member, engine } = await copyDatabase(db, place)
  const createdAt = new Date()
  const path = targetPath(place, options.to, options.prefix ?? ROUTINE_PREFIX, createdAt)
  const members: BackupMember[] = [member, { name: LEDGER_MEMBER, data: Buffer.from(JSON.stringify(state.ledger, null, 2) + '\n') }]
  const configPath = join(place.home, 'config.json')
  if (existsSync(configPath)) members.push({ name: CONFIG_MEMBER, data: readFileSync(configPath) })
  const manifest = writeBackupFile(
    path,
    {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      engine,
      brain_version: place.brainVersion,
      created_at: createdAt.toISOString(),
      pages: state.pages,
      content_hash_summary: state.content_hash_summary,
      schema_version: state.schema_version,
    },
    members,
  )
  return {
    path,
    bytes: statSync(path).size,
    pages: manifest.pages,
    engine,
    created_at: manifest.created_at,
    content_hash_summary: manifest.content_hash_summary,
    schema_version: manifest.schema_version,
  }
}

export interface BackupListing {
  path: string
  file: string
  created_at: string
  bytes: number
  pages: number
  engine: 'pglite' | 'postgres'
  brain_version: string
}

/** The backups in a folder, newest first; files that are not backups are left out. */
export function listBackups(dir: string): BackupListing[] {
  let names: string[]
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(BACKUP_EXTENSION))
  } catch {
    return []
  }
  const listed: BackupListing[] = []
  for (const file of names) {
    const path = join(dir, file)
    const manifest = readBackupManifest(path)
    if (!manifest) continue
    listed.push({ path, file, created_at: manifest.created_at, bytes: statSync(path).size, pages: manifest.pages, engine: manifest.engine, brain_version: manifest.brain_version })
  }
  return listed.sort((a, b) => b.created_at.localeCompare(a.created_at))
}

/** Removes the oldest routine backups beyond `keep`; returns the files removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const routine = listBackups(dir).filter((b) => basename(b.path).startsWith(ROUTINE_PREFIX))
  const removed: string[] = []
  for (const old of routine.slice(Math.max(keep, 1))) {
    rmSync(old.path, { force: true })
    removed.push(old.path)
  }
  return removed
}
