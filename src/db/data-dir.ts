import { isBrainError } from '../errors/index.js'
import type { Database } from './types.js'

/**
 * The embedded engine's data directory as a whole, for whoever replaces or checks it (restore,
 * repair): opening one as it is or from a copy, and whether one opens at all.
 */

/** Opens an embedded data directory as it is, or made from `copy` (a whole data directory a snapshot took) when it does not exist yet. */
export async function openDataDir(dataDir: string, copy?: Blob): Promise<Database> {
  const { openPglite } = await import('./pglite-driver.js')
  return openPglite(copy === undefined ? { dataDir } : { dataDir, template: copy })
}

/** Pages in the embedded brain at `dataDir`; null when it does not open (damaged). */
export async function dataDirPages(dataDir: string): Promise<number | null> {
  let db: Database
  try {
    db = await openDataDir(dataDir)
  } catch (err) {
    if (isBrainError(err) && err.code === 'embedded_open_failed') return null
    throw err
  }
  try {
    const { rows } = await db.query<{ n: number }>(`SELECT CASE WHEN to_regclass('pages') IS NULL THEN 0 ELSE (SELECT count(*)::int FROM pages) END AS n`)
    return rows[0]!.n
  } finally {
    await db.close()
  }
}
