import { mkdir, rename, stat, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { DEFAULT_SOURCE_ID } from './types.js'

export type WriteThroughResult =
  | { written: true; path: string }
  | { written: false; path: string | null; reason: 'repo_path_unset' | 'repo_path_missing' | 'dry_run' | 'sandboxed' | 'write_failed'; error?: string }

/** `<brainDir>/<slug>.md` for the default source, `<brainDir>/.sources/<id>/<slug>.md` otherwise. */
export function writeThroughPath(brainDir: string, sourceId: string, slug: string): string {
  const base = sourceId === DEFAULT_SOURCE_ID ? brainDir : join(brainDir, '.sources', sourceId)
  const target = resolve(base, `${slug}.md`)
  // normalizeSlug already rejects `..`; this guards the invariant at the point of writing.
  if (relative(resolve(base), target).startsWith('..')) throw new Error(`slug ${slug} escapes ${base}`)
  return target
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** Writes atomically (temp file + rename), so a crash never leaves half a page on disk. */
export async function writePageFile(brainDir: string | null, sourceId: string, slug: string, markdown: string): Promise<WriteThroughResult> {
  if (!brainDir) return { written: false, path: null, reason: 'repo_path_unset' }
  if (!(await isDirectory(brainDir))) return { written: false, path: null, reason: 'repo_path_missing' }
  const path = writeThroughPath(brainDir, sourceId, slug)
  try {
    await mkdir(dirname(path), { recursive: true })
    const tmp = `${path}.${process.pid}.tmp`
    await writeFile(tmp, markdown, 'utf8')
    await rename(tmp, path)
    return { written: true, path }
  } catch (err) {
    return { written: false, path, reason: 'write_failed', error: err instanceof Error ? err.message : String(err) }
  }
}
