import type { Database } from '../../db/index.js'
import { serializeError, UsageError } from '../../errors/index.js'
import { listSources } from '../sources/index.js'
import { canonicalDir, resolveTarget } from './target.js'
import { syncTarget, type SyncSourceOptions } from './sync-source.js'
import { zeroCounts, type SkippedSource, type SourceSyncError, type SourceSyncResult, type SyncAllResult, type SyncCounts, type SyncRequest, type SyncResult } from './types.js'

export type RunSyncOptions = Omit<SyncSourceOptions, 'full' | 'dryRun'>

const COUNT_KEYS: ReadonlyArray<keyof SyncCounts> = ['added', 'modified', 'deleted', 'renamed', 'skipped', 'failed', 'ignored']

export function validateSyncRequest(request: SyncRequest): void {
  if (request.all && request.sourceId !== undefined) {
    throw new UsageError('sync_conflicting_targets', '--all and --source cannot be combined.', { hint: 'Sync one source with --source <id>, or every source with --all.' })
  }
  if (request.all && request.repo !== undefined) {
    throw new UsageError('sync_conflicting_targets', '--all and --repo cannot be combined.', { hint: '--all syncs every registered source from its own directory.' })
  }
}

/** The one entry point of sync: a single source or directory, or every source with `all`. */
export async function runSync(db: Database, request: SyncRequest, options: RunSyncOptions): Promise<SyncResult> {
  validateSyncRequest(request)
  const sourceOptions: SyncSourceOptions = { ...options, full: request.full === true, dryRun: request.dryRun === true }
  if (request.all) return syncAll(db, sourceOptions)
  const target = await resolveTarget(db, { sourceId: request.sourceId, repo: request.repo })
  return syncTarget(db, target, sourceOptions)
}

/**
 * Visits every source with a local path, skipping those with `syncEnabled: false`. A source that
 * fails (missing directory, not a repository, locked) is reported and the others still sync.
 */
export async function syncAll(db: Database, options: SyncSourceOptions): Promise<SyncAllResult> {
  const started = Date.now()
  const sources = await listSources(db)
  const skippedSources: SkippedSource[] = []
  const results: SourceSyncResult[] = []
  const errors: SourceSyncError[] = []
  for (const source of sources) {
    if (!source.localPath) {
      skippedSources.push({ sourceId: source.id, reason: 'no_local_path' })
      continue
    }
    if (!source.config.syncEnabled) {
      skippedSources.push({ sourceId: source.id, reason: 'sync_disabled' })
      continue
    }
    options.signal?.throwIfAborted()
    try {
      results.push(await syncTarget(db, { source, repoDir: await canonicalDir(source.localPath), scope: 'source' }, options))
    } catch (err) {
      if (options.signal?.aborted) throw err
      errors.push({ sourceId: source.id, ...serializeError(err) })
    }
  }
  return summarize(results, skippedSources, errors, options.dryRun === true, started)
}

function summarize(results: SourceSyncResult[], skippedSources: SkippedSource[], errors: SourceSyncError[], dryRun: boolean, started: number): SyncAllResult {
  const totals = zeroCounts()
  for (const result of results) for (const key of COUNT_KEYS) totals[key] += result[key]
  const status: SyncAllResult['status'] = errors.length > 0 ? 'partial' : dryRun ? 'dry_run' : results.every((r) => r.status === 'up_to_date') ? 'up_to_date' : 'synced'
  return {
    status,
    all: true,
    ...totals,
    sources: results,
    skippedSources,
    errors,
    touchedSlugs: [...new Set(results.flatMap((r) => r.touchedSlugs))],
    durationMs: Date.now() - started,
  }
}
