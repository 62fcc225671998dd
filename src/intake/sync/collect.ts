import type { FileFilter } from '../sources/index.js'
import { slugForPath } from '../sources/path-kind.js'
import type { WalkDecision } from './decide.js'
import { diffCommits, listTree } from './git.js'
import { emptyPlan, planFromDiff, planFromTree, type SyncPlan } from './plan.js'

export interface CollectedPlan extends SyncPlan {
  full: boolean
  /** Slugs of every syncable file at HEAD (full walk only): pages sync wrote that are not among them are stale. */
  treeSlugs: string[] | null
  /** Earlier failures whose file is gone or no longer syncable at HEAD. */
  droppedFailures: string[]
}

interface CollectInputs {
  repoDir: string
  decision: Exclude<WalkDecision, { kind: 'up_to_date' }>
  lastCommit: string | null
  bookmarkReachable: boolean
  head: string
  filter: FileFilter
  /** Paths that failed in earlier syncs; they are retried. */
  failedPaths: readonly string[]
  signal?: AbortSignal
}

/**
 * Gathers the work of one sync. The diff since the bookmark supplies deletions and renames (a
 * full walk applies them too, so moved pages keep their embeddings); the imports are the diff's
 * changed files, or every syncable file at HEAD for a full walk, plus earlier failures.
 */
export async function collectPlan(input: CollectInputs): Promise<CollectedPlan> {
  const { repoDir, head, filter, signal } = input
  const useDiff = input.lastCommit !== null && input.bookmarkReachable && input.lastCommit !== head
  const plan = useDiff ? planFromDiff(await diffCommits(repoDir, input.lastCommit!, head, signal), filter) : emptyPlan()
  const full = input.decision.kind === 'full'
  let treeSlugs: string[] | null = null
  if (full) {
    const moveTargets = new Set(plan.moves.map((m) => m.to.path))
    const tree = planFromTree(await listTree(repoDir, head, undefined, signal), filter)
    plan.imports = tree.filter((f) => !moveTargets.has(f.path))
    treeSlugs = tree.map((f) => slugForPath(f.path, f.kind)).filter((s): s is string => s !== null)
  }
  const planned = new Set([...plan.imports.map((f) => f.path), ...plan.moves.map((m) => m.to.path)])
  const retry = full ? [] : input.failedPaths.filter((path) => !planned.has(path))
  const droppedFailures: string[] = []
  if (retry.length > 0) {
    const found = planFromTree(await listTree(repoDir, head, retry, signal), filter)
    const foundPaths = new Set(found.map((f) => f.path))
    plan.imports.push(...found)
    droppedFailures.push(...retry.filter((path) => !foundPaths.has(path)))
  }
  // A delete and an import that meet on one slug (e.g. `Note.md` replaced by `note.md`) update the page in place.
  const importSlugs = new Set(plan.imports.map((f) => slugForPath(f.path, f.kind)))
  plan.deletes = plan.deletes.filter((d) => !importSlugs.has(d.slug))
  return { ...plan, full, treeSlugs, droppedFailures }
}
