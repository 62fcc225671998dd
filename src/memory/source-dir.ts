/**
 * The source a working directory lies in: an agent working inside a registered source's folder
 * means that source, so its memory reads that source's pages without being told.
 */
import { isAbsolute, relative, resolve } from 'node:path'
import type { SqlExecutor } from '../db/index.js'

/** Whether `dir` is `root` or lies below it. */
function inside(dir: string, root: string): boolean {
  const rel = relative(root, dir)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/** The id of the registered source whose directory holds `cwd` (the deepest, when nested), or null. */
export async function sourceOfDirectory(db: SqlExecutor, cwd: string): Promise<string | null> {
  if (!isAbsolute(cwd)) return null
  const dir = resolve(cwd)
  const { rows } = await db.query<{ id: string; local_path: string }>(`SELECT id, local_path FROM sources WHERE local_path IS NOT NULL AND local_path <> ''`)
  let best: { id: string; depth: number } | null = null
  for (const row of rows) {
    const root = resolve(row.local_path)
    if (!inside(dir, root)) continue
    if (best === null || root.length > best.depth) best = { id: row.id, depth: root.length }
  }
  return best?.id ?? null
}
