import type { FileFilter, FileKind } from '../sources/index.js'
import { acceptPath, kindByExtension, slugForPath } from '../sources/path-kind.js'
import { isRegularFileMode, type DiffEntry, type TreeEntry } from './git-parse.js'

/** A committed file to import: its path below the source root and the blob holding its text. */
export interface PlannedFile {
  path: string
  kind: FileKind
  sha: string
  size: number | null
}

interface PlannedDelete {
  path: string
  slug: string
}

export interface PlannedMove {
  from: PlannedDelete
  to: PlannedFile
}

export interface SyncPlan {
  imports: PlannedFile[]
  /** Renames whose old page moves to the new slug before the new text is imported. */
  moves: PlannedMove[]
  deletes: PlannedDelete[]
  /** Changed paths the source does not sync (wrong kind, excluded, symlinks, submodules). */
  ignored: string[]
}

export function emptyPlan(): SyncPlan {
  return { imports: [], moves: [], deletes: [], ignored: [] }
}

function syncable(filter: FileFilter, path: string, mode: string, sha: string, size: number | null = null): PlannedFile | null {
  // Symlinks are never followed and submodules are other repositories.
  if (!isRegularFileMode(mode)) return null
  const kind = acceptPath(filter, path)
  return kind ? { path, kind, sha, size } : null
}

function deletion(path: string): PlannedDelete | null {
  const slug = slugForPath(path)
  return slug === null ? null : { path, slug }
}

function planRename(plan: SyncPlan, from: string, to: PlannedFile | null, toPath: string): void {
  const old = deletion(from)
  if (!to) {
    if (old) plan.deletes.push(old)
    else plan.ignored.push(toPath)
    return
  }
  const oldKind = kindByExtension(from)
  if (!old || oldKind !== to.kind) {
    if (old) plan.deletes.push(old)
    plan.imports.push(to)
  } else if (old.slug === slugForPath(to.path, to.kind)) {
    // Only the case changed (markdown slugs are lower-case): same page, new text.
    plan.imports.push(to)
  } else {
    plan.moves.push({ from: old, to })
  }
}

/**
 * Turns `git diff bookmark..HEAD` into page operations. Deleted paths, and renamed paths whose
 * new name is not syncable, resolve to a slug by the kind their name implies (code paths keep
 * their path, markdown paths lose `.md` and are lower-cased) and that page is removed. A file
 * that turned into a symlink is treated as deleted.
 */
export function planFromDiff(entries: readonly DiffEntry[], filter: FileFilter): SyncPlan {
  const plan = emptyPlan()
  for (const entry of entries) {
    const target = entry.status === 'D' ? null : syncable(filter, entry.dstPath, entry.dstMode, entry.dstSha)
    switch (entry.status) {
      case 'D': {
        const old = deletion(entry.srcPath)
        if (old) plan.deletes.push(old)
        else plan.ignored.push(entry.srcPath)
        break
      }
      case 'R':
        planRename(plan, entry.srcPath, target, entry.dstPath)
        break
      case 'T': {
        const old = isRegularFileMode(entry.srcMode) && !target ? deletion(entry.srcPath) : null
        if (target) plan.imports.push(target)
        else if (old) plan.deletes.push(old)
        else plan.ignored.push(entry.dstPath)
        break
      }
      default:
        if (target) plan.imports.push(target)
        else plan.ignored.push(entry.dstPath)
    }
  }
  return plan
}

/** Every syncable file of a commit's tree (the full walk). */
export function planFromTree(entries: readonly TreeEntry[], filter: FileFilter): PlannedFile[] {
  const files: PlannedFile[] = []
  for (const entry of entries) {
    if (entry.type !== 'blob') continue
    const file = syncable(filter, entry.path, entry.mode, entry.sha, entry.size)
    if (file) files.push(file)
  }
  return files
}
