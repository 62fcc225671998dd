import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { dataDirPages, engineKindOf, openDataDir, usesServer, type SqlExecutor } from '../db/index.js'
import { ConfirmationRequired, DatabaseError, NotAvailableError } from '../errors/index.js'
import { backupsDir, listBackups, type BackupListing, type BackupPlace } from './backups.js'
import { restoreBackup } from './restore.js'

/**
 * `brain repair`: an embedded brain that no longer opens. PGLite's own recovery (replaying the
 * WAL) runs whenever it opens a data directory, so the first step is simply to open it; PGLite
 * ships no pg_resetwal or single-user repair mode, so when that fails the damaged directory is
 * kept aside and the newest backup restored, and the report names what the backup cannot hold:
 * files in the brain's folders changed after it was made.
 */

interface ChangedFolder {
  /** `sync.repo_path` (pages written through to disk) or a source's folder. */
  dir: string
  origin: 'write_through' | 'source'
  source_id: string | null
  /** Files changed after the backup was made (the first 200 shown). */
  changed_files: string[]
  changed_count: number
  /** The command that brings them back (an import skips what is already in). */
  reimport: string
}

export interface RepairResult {
  status: 'opens' | 'restored' | 'no_brain'
  data_dir: string
  /** What the repair did, step by step, for the report. */
  steps: string[]
  pages: number | null
  backup: Pick<BackupListing, 'path' | 'created_at' | 'pages'> | null
  kept_aside: string | null
  /** Pages written after the backup that its restore does not hold, by where they can come back from. */
  not_in_backup: ChangedFolder[]
}

const SHOWN_FILES = 200
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.brain'])

function changedSince(dir: string, sinceMs: number): string[] {
  const found: string[] = []
  const walk = (at: string): void => {
    let entries
    try {
      entries = readdirSync(at, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path)
      } else if (entry.isFile()) {
        try {
          if (statSync(path).mtimeMs > sinceMs) found.push(path)
        } catch {
          // Gone meanwhile.
        }
      }
    }
  }
  walk(dir)
  return found.sort()
}

/** Folders the restored brain knows of (write-through and sources), with what changed in them since `sinceIso`. */
async function changedSinceBackup(db: SqlExecutor, sinceIso: string): Promise<ChangedFolder[]> {
  const since = Date.parse(sinceIso)
  const folders: Array<Omit<ChangedFolder, 'changed_files' | 'changed_count' | 'reimport'>> = []
  const repo = await db.query<{ value: string }>(`SELECT value FROM config WHERE key = 'sync.repo_path'`)
  if (repo.rows[0]?.value) folders.push({ dir: repo.rows[0].value, origin: 'write_through', source_id: null })
  const sources = await db.query<{ id: string; local_path: string | null }>('SELECT id, local_path FROM sources WHERE local_path IS NOT NULL ORDER BY id')
  for (const s of sources.rows) if (s.local_path && !folders.some((f) => f.dir === s.local_path)) folders.push({ dir: s.local_path, origin: 'source', source_id: s.id })
  const result: ChangedFolder[] = []
  for (const folder of folders) {
    if (!existsSync(folder.dir)) continue
    const files = changedSince(folder.dir, since)
    if (files.length === 0) continue
    const reimport = folder.origin === 'source' ? `brain sync --source ${folder.source_id} --full` : `brain import ${folder.dir}`
    result.push({ ...folder, changed_files: files.slice(0, SHOWN_FILES), changed_count: files.length, reimport })
  }
  return result
}

/** Repairs the embedded brain of `place`; without `yes` it only says what it would do. */
export async function repairBrain(place: BackupPlace, options: { yes: boolean }): Promise<RepairResult> {
  if (usesServer(place.engine)) {
    throw new NotAvailableError('repair_embedded_only', 'brain repair is for the embedded engine; PostgreSQL recovers its own database after a crash.', {
      hint: 'To go back to a backup on the server engine, run `brain restore <file>`.',
    })
  }
  const dataDir = place.engine.dataDir
  const base: RepairResult = { status: 'no_brain', data_dir: dataDir, steps: [], pages: null, backup: null, kept_aside: null, not_in_backup: [] }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) return { ...base, steps: ['no embedded brain here: nothing to repair'] }
  const pages = await dataDirPages(dataDir)
  if (pages !== null) return { ...base, status: 'opens', pages, steps: ['opened the brain (PGLite replays its write-ahead log on open): it is whole, nothing to repair'] }
  const steps = ['PGLite recovery (write-ahead log replay on open) failed: the database stays closed']
  const newest = listBackups(backupsDir(place.home)).find((b) => b.engine === engineKindOf(place.engine))
  if (!newest) {
    throw new DatabaseError('repair_no_backup', `The brain at ${dataDir} does not open and ${backupsDir(place.home)} holds no backup to restore; nothing was changed.`, {
      hint: 'Restore a backup kept elsewhere with `brain restore <file> --force`, or move the directory aside and run `brain init`, then re-import your folders.',
    })
  }
  if (!options.yes) {
    throw new ConfirmationRequired(
      'repair_needs_confirmation',
      `The brain at ${dataDir} does not open. Repair keeps it aside and restores ${newest.path} (${newest.created_at}, ${newest.pages} pages).`,
      {
        hint: 'Run `brain repair --yes` to go ahead; nothing is deleted.',
      },
    )
  }
  const restored = await restoreBackup(newest.path, place, { force: true, damaged: true })
  steps.push(`kept the damaged directory aside at ${restored.kept_aside}`, `restored ${newest.path} (${newest.pages} pages, made ${newest.created_at})`)
  const db = await openDataDir(dataDir)
  let notInBackup: ChangedFolder[]
  try {
    notInBackup = await changedSinceBackup(db, newest.created_at)
  } finally {
    await db.close()
  }
  return {
    status: 'restored',
    data_dir: dataDir,
    steps,
    pages: restored.pages,
    backup: { path: newest.path, created_at: newest.created_at, pages: newest.pages },
    kept_aside: restored.kept_aside,
    not_in_backup: notInBackup,
  }
}
