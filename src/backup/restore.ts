import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { acquireFileLock, dataDirPages, engineKindOf, loadMigrations, openDatabase, openDataDir, usesServer } from '../db/index.js'
import { ConflictError, ValidationError } from '../errors/index.js'
import { openBackupFile, type OpenedBackup } from './archive.js'
import { CONFIG_MEMBER, createBackup, DATABASE_MEMBER, readBrainState, type BackupPlace, type BrainState } from './backups.js'
import { findPgProgram, runPgProgram } from './pg-programs.js'

/**
 * `brain restore`: puts a backup's database in place of the brain's. Everything that can refuse
 * (a damaged or foreign file, another engine, a brain with pages and no --force, a brain in use)
 * refuses before anything is changed; the database replaced is kept aside, never deleted.
 */

interface RestoreOptions {
  /** Replace a brain that has pages (it is kept aside). */
  force: boolean
  /** The current database is known not to open (repair): it is kept aside unread. */
  damaged?: boolean
}

export interface RestoreResult {
  path: string
  engine: 'pglite' | 'postgres'
  pages: number
  created_at: string
  content_hash_summary: string
  /** The pages the brain had before (null when it did not open). */
  previous_pages: number | null
  /** Where the replaced database was kept: a directory (embedded) or a backup file (server). */
  kept_aside: string | null
  /** config.json was written from the backup (only where the brain had none). */
  config_restored: boolean
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
}

function checkFits(backup: OpenedBackup, place: BackupPlace): void {
  const engine = engineKindOf(place.engine)
  if (backup.manifest.engine !== engine) {
    throw new ValidationError('backup_engine_mismatch', `${backup.path} is a backup of a ${backup.manifest.engine} brain; this brain runs on ${engine}.`, {
      hint: 'Nothing was changed. Restore it into a brain of the same engine, then move pages across with `brain export` and `brain import`.',
    })
  }
  const newest = loadMigrations().reduce((max, m) => Math.max(max, m.version), 0)
  if (backup.manifest.schema_version > newest) {
    throw new ValidationError('backup_too_new', `${backup.path} holds schema version ${backup.manifest.schema_version}; this brain knows up to ${newest}.`, {
      hint: `Nothing was changed. Upgrade brain to ${backup.manifest.brain_version} or newer, then restore.`,
    })
  }
}

function refuseNotEmpty(location: string, pages: number): ConflictError {
  return new ConflictError('restore_target_not_empty', `The brain at ${location} has ${pages} page${pages === 1 ? '' : 's'}; nothing was changed.`, {
    hint: 'Run `brain restore <file> --force` to replace it; the current database is kept aside, not deleted.',
  })
}

function checkRestored(backup: OpenedBackup, state: BrainState): void {
  if (state.content_hash_summary !== backup.manifest.content_hash_summary || state.pages !== backup.manifest.pages) {
    throw new ValidationError('backup_damaged', `${backup.path} restored to ${state.pages} pages that differ from the ${backup.manifest.pages} its manifest describes.`, {
      hint: 'Nothing was changed. Use another backup (`brain backup list`).',
    })
  }
}

async function restorePglite(backup: OpenedBackup, place: BackupPlace, options: RestoreOptions): Promise<Omit<RestoreResult, 'config_restored'>> {
  const dataDir = place.engine.dataDir
  const present = existsSync(join(dataDir, 'PG_VERSION'))
  const previous = present && !options.damaged ? await dataDirPages(dataDir) : null
  if (present && !options.force) {
    if (previous === null) {
      throw new ConflictError('restore_target_unreadable', `The brain at ${dataDir} does not open; nothing was changed.`, {
        hint: 'Run `brain repair` (it restores the newest backup), or `brain restore <file> --force`; the damaged directory is kept aside.',
      })
    }
    if (previous > 0) throw refuseNotEmpty(dataDir, previous)
  }
  // The copy is unpacked and checked beside the brain first: a backup that does not open or
  // does not hold what its manifest says never replaces anything.
  const staging = join(place.home, `.restore-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true, mode: 0o700 })
  try {
    const dump = new Blob([await promisify(gunzip)(backup.member(DATABASE_MEMBER.pglite))])
    const staged = await openDataDir(join(staging, 'db'), dump)
    try {
      checkRestored(backup, await readBrainState(staged))
    } finally {
      await staged.close()
    }
    const lock = acquireFileLock(join(dataDir, '..', 'db.lock'), dataDir)
    let keptAside: string | null = null
    try {
      if (existsSync(dataDir)) {
        keptAside = `${dataDir}.${options.damaged || previous === null ? 'damaged' : 'before-restore'}-${stamp()}`
        renameSync(dataDir, keptAside)
      }
      renameSync(join(staging, 'db'), dataDir)
    } finally {
      lock.release()
    }
    return { ...summary(backup), previous_pages: previous, kept_aside: keptAside }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

function summary(backup: OpenedBackup): Pick<RestoreResult, 'path' | 'engine' | 'pages' | 'created_at' | 'content_hash_summary'> {
  const m = backup.manifest
  return { path: backup.path, engine: m.engine, pages: m.pages, created_at: m.created_at, content_hash_summary: m.content_hash_summary }
}

/** The schemas a dump creates, from pg_restore's table of contents. */
function dumpedSchemas(list: string): string[] {
  return [...list.matchAll(/^\d+; \d+ \d+ SCHEMA - (\S+) /gm)].map((m) => m[1]!)
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`

/**
 * Empties the brain's schemas and loads the dump, in one psql transaction: a restore that fails
 * half-way leaves the database as it was. Dropping whole schemas, rather than pg_restore's
 * object-by-object --clean, also removes what --clean cannot (the queue's partition constraints).
 */
async function replaceServerDatabase(dump: Buffer, place: BackupPlace): Promise<void> {
  const pgRestore = findPgProgram('pg_restore', place.env.PATH)
  const psql = findPgProgram('psql', place.env.PATH)
  const work = join(place.home, `.restore-${process.pid}`)
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true, mode: 0o700 })
  try {
    const dumpFile = join(work, 'database.pgdump')
    writeFileSync(dumpFile, dump, { mode: 0o600 })
    const schemas = dumpedSchemas((await runPgProgram({ program: pgRestore, args: ['--list', dumpFile], url: null, env: place.env })).toString())
    const script = join(work, 'restore.sql')
    await runPgProgram({ program: pgRestore, args: ['--no-owner', '--no-privileges', `--file=${script}`, dumpFile], url: null, env: place.env })
    const dropped = [...new Set(['public', ...schemas])]
    const prelude = [...dropped.map((s) => `DROP SCHEMA IF EXISTS ${quoteIdent(s)} CASCADE;`), ...(schemas.includes('public') ? [] : ['CREATE SCHEMA public;'])].join('\n')
    const preludeFile = join(work, 'prelude.sql')
    writeFileSync(preludeFile, prelude + '\n', { mode: 0o600 })
    await runPgProgram({
      program: psql,
      args: ['--no-psqlrc', '--quiet', '--set=ON_ERROR_STOP=1', '--single-transaction', `--file=${preludeFile}`, `--file=${script}`],
      url: place.engine.url ?? '',
      env: place.env,
    })
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

async function restorePostgres(backup: OpenedBackup, place: BackupPlace, options: RestoreOptions): Promise<Omit<RestoreResult, 'config_restored'>> {
  const db = await openDatabase(place.engine, { migrate: false })
  let previous: number
  let keptAside: string | null = null
  try {
    const { rows } = await db.query<{ n: number }>(`SELECT CASE WHEN to_regclass('pages') IS NULL THEN 0 ELSE (SELECT count(*)::int FROM pages) END AS n`)
    previous = rows[0]!.n
    if (previous > 0 && !options.force) throw refuseNotEmpty(db.location, previous)
    // A server database cannot be renamed aside from here: its content is kept as a backup file.
    if (previous > 0) keptAside = (await createBackup(db, place, { prefix: 'before-restore-' })).path
  } finally {
    await db.close()
  }
  await replaceServerDatabase(backup.member(DATABASE_MEMBER.postgres), place)
  const restored = await openDatabase(place.engine, { migrate: false })
  try {
    checkRestored(backup, await readBrainState(restored))
  } finally {
    await restored.close()
  }
  return { ...summary(backup), previous_pages: previous, kept_aside: keptAside }
}

/** Restores `file` into the brain `place` describes; see RestoreOptions for what it replaces. */
export async function restoreBackup(file: string, place: BackupPlace, options: RestoreOptions): Promise<RestoreResult> {
  const backup = openBackupFile(file)
  checkFits(backup, place)
  const result = usesServer(place.engine) ? await restorePostgres(backup, place, options) : await restorePglite(backup, place, options)
  // The brain's own choices win: the backup's config.json is used only where there is none.
  const configPath = join(place.home, 'config.json')
  let configRestored = false
  if (!existsSync(configPath) && backup.manifest.members.some((m) => m.name === CONFIG_MEMBER)) {
    writeFileSync(configPath, backup.member(CONFIG_MEMBER), { mode: 0o600 })
    configRestored = true
  }
  return { ...result, config_restored: configRestored }
}
