import { rename, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { diskProblemOf } from '../errors/index.js'
import { containedDirectory, lexicallyWithin, outsideRoot } from '../util/contained-path.js'
import { isPlainTextNoteName } from './note-files.js'
import { DEFAULT_SOURCE_ID } from './types.js'

export type WriteThroughResult =
  { written: true; path: string } | { written: false; path: string | null; reason: 'repo_path_unset' | 'repo_path_missing' | 'dry_run' | 'sandboxed' | 'write_failed' | 'disk_full'; error?: string }

/**
 * `<brainDir>/<slug>.md` for the default source, `<brainDir>/.sources/<id>/<slug>.md` otherwise; a
 * plain-text note (`notes/list.txt`) is its own file.
 */
export function writeThroughPath(brainDir: string, sourceId: string, slug: string): string {
  const base = sourceId === DEFAULT_SOURCE_ID ? brainDir : join(brainDir, '.sources', sourceId)
  const target = resolve(base, isPlainTextNoteName(slug) ? slug : `${slug}.md`)
  // normalizeSlug already rejects `..` segments; this guards the invariant at the point of writing.
  if (!lexicallyWithin(brainDir, target)) throw outsideRoot(brainDir, target)
  return target
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/**
 * Checks, before anything is stored, that a page's write-through file would land inside the
 * repository: throws `path_outside_root` when a folder on the way links out of it.
 */
export async function checkWriteThrough(brainDir: string | null, sourceId: string, slug: string): Promise<void> {
  if (!brainDir || !(await isDirectory(brainDir))) return
  await containedDirectory(brainDir, dirname(writeThroughPath(brainDir, sourceId, slug)), { create: false })
}

/** Writes atomically (temp file + rename), so a crash never leaves half a page on disk. */
export async function writePageFile(brainDir: string | null, sourceId: string, slug: string, markdown: string): Promise<WriteThroughResult> {
  if (!brainDir) return { written: false, path: null, reason: 'repo_path_unset' }
  if (!(await isDirectory(brainDir))) return { written: false, path: null, reason: 'repo_path_missing' }
  const path = writeThroughPath(brainDir, sourceId, slug)
  const tmp = `${path}.${process.pid}.tmp`
  try {
    await containedDirectory(brainDir, dirname(path), { create: true })
    await writeFile(tmp, markdown, 'utf8')
    await rename(tmp, path)
    return { written: true, path }
  } catch (err) {
    await unlink(tmp).catch(() => undefined)
    const reason = diskProblemOf(err) === 'full' ? 'disk_full' : 'write_failed'
    return { written: false, path, reason, error: err instanceof Error ? err.message : String(err) }
  }
}
