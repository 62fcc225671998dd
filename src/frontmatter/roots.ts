import { realpath } from 'node:fs/promises'
import { isAbsolute, relative, sep } from 'node:path'
import type { SqlExecutor } from '../db/index.js'
import type { SourceConfig } from '../intake/sources/source-repository.js'

/** A directory whose markdown files are pages: a registered source, or the brain directory. */
export interface PageRoot {
  /** The source id; null for the brain directory (`sync.repo_path`) when no source claims it. */
  sourceId: string | null
  /** Canonical absolute path (symlinks resolved). */
  path: string
  config: SourceConfig | null
}

async function canonical(path: string): Promise<string | null> {
  try {
    return await realpath(path)
  } catch {
    return null
  }
}

/** The registered sources' directories, plus `sync.repo_path`; directories that are gone are left out. */
export async function loadPageRoots(db: SqlExecutor): Promise<PageRoot[]> {
  const { listSources } = await import('../intake/sources/source-repository.js')
  const { readConfigValue } = await import('../config/index.js')
  const roots: PageRoot[] = []
  for (const source of await listSources(db)) {
    const path = source.localPath ? await canonical(source.localPath) : null
    if (path) roots.push({ sourceId: source.id, path, config: source.config })
  }
  const brainDir = await readConfigValue(db, 'sync.repo_path').catch(() => null)
  const brainPath = typeof brainDir === 'string' && brainDir !== '' ? await canonical(brainDir) : null
  if (brainPath && !roots.some((r) => r.path === brainPath)) roots.push({ sourceId: null, path: brainPath, config: null })
  return roots
}

/** The path relative to `root` when it is `root` or inside it, else null. */
function insideRoot(path: string, root: string): string | null {
  if (path === root) return ''
  const rel = relative(root, path)
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return null
  return rel.split(sep).join('/')
}

/** The deepest root holding `path` (canonical), with the path relative to it. */
export function owningRoot(path: string, roots: readonly PageRoot[]): { root: PageRoot; relativePath: string } | null {
  let best: { root: PageRoot; relativePath: string } | null = null
  for (const root of roots) {
    const rel = insideRoot(path, root.path)
    if (rel !== null && (!best || root.path.length > best.root.path.length)) best = { root, relativePath: rel }
  }
  return best
}

export { canonical as canonicalPath }
