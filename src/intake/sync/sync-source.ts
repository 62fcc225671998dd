import { CHUNKER_VERSION } from '../../chunking/index.js'
import type { Database } from '../../db/index.js'
import type { EmbeddingProvider } from '../../embedding/index.js'
import { ValidationError } from '../../errors/index.js'
import { createFileFilter } from '../sources/index.js'
import { applyPlan, deleteStalePages, type ApplyOutcome } from './apply.js'
import { collectPlan, type CollectedPlan } from './collect.js'
import { decideWalk, type WalkDecision } from './decide.js'
import { dryRunResult } from './dry-run.js'
import { listFailures, recordFailures } from './failures.js'
import { commitExists, headCommit, isGitWorkTree } from './git.js'
import { acquireSyncLock, type SyncLockOptions } from './lock.js'
import { readBookmark, writeBookmark, type SyncTarget } from './target.js'
import { zeroCounts, type SourceSyncResult, type SyncProgress } from './types.js'

export interface SyncSourceOptions {
  embedder: EmbeddingProvider | null
  full?: boolean
  dryRun?: boolean
  /** Names this sync in the lock, so a refused second sync can say who holds it. */
  holder: string
  maxFences?: number
  signal?: AbortSignal
  onProgress?: (p: SyncProgress) => void
  onWarning?: (message: string) => void
  lock?: Partial<Omit<SyncLockOptions, 'holder'>>
}

const CURRENT_CHUNKER = String(CHUNKER_VERSION)

async function requireWorkTree(repoDir: string): Promise<void> {
  if (!(await isGitWorkTree(repoDir))) {
    throw new ValidationError('not_a_git_repository', `${repoDir} is not a git working tree; sync follows commits.`, {
      hint: 'Run `git init && git add -A && git commit -m init` there, or import the folder once with the import job.',
    })
  }
}

async function requireHead(repoDir: string): Promise<string> {
  const head = await headCommit(repoDir)
  if (!head) throw new ValidationError('repo_has_no_commits', `${repoDir} has no commits yet.`, { hint: 'Commit the files to sync, then run sync again.' })
  return head
}

/**
 * Syncs one directory into one source under the source's sync lock. Committed content is the
 * truth: pages follow HEAD, read from git objects, so uncommitted edits wait for their commit. The
 * bookmark moves to HEAD only after the whole run; files that failed are recorded (and retried by
 * the next sync that does work) instead of being skipped silently.
 */
export async function syncTarget(db: Database, target: SyncTarget, options: SyncSourceOptions): Promise<SourceSyncResult> {
  const started = Date.now()
  await requireWorkTree(target.repoDir)
  const lock = options.dryRun ? null : await acquireSyncLock(db, target.source.id, { ...options.lock, holder: options.holder })
  try {
    // HEAD is read under the lock: read earlier, it could be older than the bookmark a sync
    // that just finished wrote, and the diff would run backwards.
    const head = await requireHead(target.repoDir)
    const bookmark = await readBookmark(db, target)
    const bookmarkReachable = bookmark.lastCommit !== null && (await commitExists(target.repoDir, bookmark.lastCommit))
    const decision = decideWalk({
      lastCommit: bookmark.lastCommit,
      head,
      storedChunkerVersion: bookmark.chunkerVersion,
      currentChunkerVersion: CURRENT_CHUNKER,
      full: options.full === true,
      bookmarkReachable,
    })
    const failures = await listFailures(db, target.source.id)
    const base = baseResult(target, bookmark.lastCommit, head, decision, started)
    if (decision.kind === 'up_to_date') return { ...base, pendingFailures: failures.map(({ path, class: c, code, message }) => ({ path, class: c, code, message })) }
    options.onProgress?.({ sourceId: target.source.id, phase: 'plan', done: 0, total: 0 })
    const plan = await collectPlan({
      repoDir: target.repoDir,
      decision,
      lastCommit: bookmark.lastCommit,
      bookmarkReachable,
      head,
      filter: createFileFilter(target.source.config),
      failedPaths: failures.map((f) => f.path),
      signal: options.signal,
    })
    if (options.dryRun) return dryRunResult(db, target, plan, base, options.signal)
    const outcome = await applyPlan(db, plan, { sourceId: target.source.id, repoDir: target.repoDir, ...options })
    const stale = plan.treeSlugs ? await deleteStalePages(db, target.source.id, target.repoDir, plan.treeSlugs) : []
    const failed = [...outcome.renameImport.failed, ...outcome.mainImport.failed]
    await db.transaction(async (tx) => {
      await recordFailures(tx, target.source.id, head, { settled: plan.full ? 'all' : settledPaths(plan), failed })
      await writeBookmark(tx, target, head, CURRENT_CHUNKER)
    })
    return finishedResult(base, plan, outcome, stale, started)
  } finally {
    await lock?.release()
  }
}

function baseResult(target: SyncTarget, fromCommit: string | null, head: string, decision: WalkDecision, started: number): SourceSyncResult {
  return {
    status: 'up_to_date',
    sourceId: target.source.id,
    repo: target.repoDir,
    bookmarkScope: target.scope,
    mode: decision.kind === 'up_to_date' ? null : decision.kind,
    fullWalkReason: decision.kind === 'full' ? decision.reason : null,
    fromCommit,
    toCommit: head,
    ...zeroCounts(),
    failures: [],
    pendingFailures: [],
    embedded: 0,
    embedError: null,
    touchedSlugs: [],
    deletedSlugs: [],
    chunkerVersion: CURRENT_CHUNKER,
    durationMs: Date.now() - started,
  }
}

/** Every path this sync settled one way or another; their earlier failures are cleared. */
function settledPaths(plan: CollectedPlan): string[] {
  return [...plan.imports.map((f) => f.path), ...plan.moves.flatMap((m) => [m.from.path, m.to.path]), ...plan.deletes.map((d) => d.path), ...plan.droppedFailures]
}

function finishedResult(base: SourceSyncResult, plan: CollectedPlan, outcome: ApplyOutcome, stale: string[], started: number): SourceSyncResult {
  const { renameImport, mainImport } = outcome
  const failures = [...renameImport.failed, ...mainImport.failed]
  const deletedSlugs = [...outcome.deletedSlugs, ...stale]
  return {
    ...base,
    status: 'synced',
    // A renamed file whose old page was missing is new to the brain.
    added: mainImport.created + renameImport.created,
    modified: mainImport.updated,
    deleted: deletedSlugs.length,
    renamed: outcome.moved.length,
    skipped: mainImport.skipped,
    failed: failures.length,
    ignored: plan.ignored.length,
    failures,
    embedded: renameImport.embedded + mainImport.embedded,
    embedError: mainImport.embedError ?? renameImport.embedError,
    touchedSlugs: [...new Set([...outcome.moved, ...renameImport.touchedSlugs, ...mainImport.touchedSlugs])],
    deletedSlugs,
    durationMs: Date.now() - started,
  }
}
