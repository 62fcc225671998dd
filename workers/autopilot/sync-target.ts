import { resolve } from 'node:path'
import type { SqlExecutor } from '../../src/db/index.js'

export interface SyncTarget {
  /** The brain directory the cycle works on, when one is known. */
  dir: string | null
  /** The source whose local_path is that directory; null means the global bookmark. */
  sourceId: string | null
  /** What the sync handler receives. */
  data: Record<string, unknown>
}

const UNDEFINED_TABLE = '42P01'

async function sourceAt(db: SqlExecutor, dir: string): Promise<string | null> {
  try {
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM sources WHERE rtrim(local_path, '/') = rtrim($1, '/') ORDER BY id LIMIT 1`, [dir])
    return rows[0]?.id ?? null
  } catch (err) {
    // An older brain without a sources table syncs against the global bookmark.
    if (err !== null && typeof err === 'object' && 'code' in err && err.code === UNDEFINED_TABLE) return null
    throw err
  }
}

/**
 * Works out what sync should do for a cycle: the directory's source (by sources.local_path) with
 * that source's bookmark, or the directory itself with the global bookmark when no source
 * matches; with no directory at all, every registered source.
 */
export async function resolveSyncTarget(db: SqlExecutor, dir: string | null): Promise<SyncTarget> {
  if (dir === null || dir.trim() === '') return { dir: null, sourceId: null, data: { all: true } }
  const path = resolve(dir)
  const sourceId = await sourceAt(db, path)
  return { dir: path, sourceId, data: sourceId ? { sourceId } : { repoPath: path } }
}
