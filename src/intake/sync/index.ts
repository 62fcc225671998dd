/**
 * Git sync: what changed since a source's bookmark, applied through the file importer, with
 * its lock, gate, dry run and failure ledger.
 * May import: chunking, config, db, embedding, errors, history, intake/import, intake/sources,
 * pages, util.
 */
export { runSync, syncAll, validateSyncRequest, type RunSyncOptions } from './run-sync.js'
export { syncTarget, type SyncSourceOptions } from './sync-source.js'
export { resolveTarget, canonicalDir, GLOBAL_BOOKMARK_KEY, type SyncTarget } from './target.js'
export { acquireSyncLock, SYNC_LOCK_STALE_MS, type SyncLock, type SyncLockOptions } from './lock.js'
export { previewSyncAll, summarizePreview, formatPreview, type CostPreview, type SourcePreview } from './preview.js'
export { decideGate, runGate, isYes, type GateDecision, type GateInputs, type GateIo, type GateOutcome } from './gate.js'
export { decideWalk, type WalkDecision, type WalkInputs } from './decide.js'
export { planFromDiff, planFromTree, type SyncPlan, type PlannedFile } from './plan.js'
export { parseDiffRaw, parseLsTree, type DiffEntry, type TreeEntry } from './git-parse.js'
export { listFailures, type RecordedFailure } from './failures.js'
export { SYNC_SOURCE_KIND } from './apply.js'
export * from './types.js'
