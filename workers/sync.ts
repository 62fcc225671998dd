import { UsageError } from '../src/errors/index.js'
import type { SyncProgress, SyncRequest, SyncResult } from '../src/sync/index.js'
import type { JobHandler } from '../src/queue/handler.js'

function optionalString(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError('invalid_sync_data', `Sync job data.${key} must be a non-empty string.`)
  return value
}

/**
 * Reads the job data. The directory may come as `repo` (CLI), `repoPath` (autopilot cycle) or
 * `dir`; each means the same thing.
 */
export function parseSyncData(data: Record<string, unknown>): SyncRequest {
  const repo = optionalString(data, 'repo') ?? optionalString(data, 'repoPath') ?? optionalString(data, 'dir')
  return {
    sourceId: optionalString(data, 'sourceId'),
    all: data.all === true,
    repo,
    full: data.full === true,
    dryRun: data.dryRun === true,
    noEmbed: data.noEmbed === true,
    noExtract: data.noExtract === true,
  }
}

function progressMessage(p: SyncProgress): string {
  if (p.phase === 'plan') return `${p.sourceId}: reading git history`
  if (p.phase === 'embed') return `${p.sourceId}: embedding`
  return `${p.sourceId}: ${p.path ?? ''}`.trimEnd()
}

/**
 * The job behind `brain sync` and the autopilot cycle's sync phase. The result carries the
 * touched slugs twice: `touchedSlugs`, and `slugs`, which the cycle hands to its extract phase.
 */
const syncHandler: JobHandler = async (ctx) => {
  const request = parseSyncData(ctx.data)
  const { runSync } = await import('../src/sync/index.js')
  const { embeddingProviderFor } = await import('../src/embedding/store/index.js')
  const result: SyncResult = await runSync(ctx.db, request, {
    embedder: request.noEmbed ? null : embeddingProviderFor(ctx.config.embedding),
    holder: `sync job ${ctx.jobId}`,
    maxFences: ctx.config.import.maxFencesPerPage,
    signal: ctx.signal,
    onWarning: (message) => ctx.logger.warn(message),
    onProgress: (p) => ctx.progress({ done: p.done, total: p.total, message: progressMessage(p) }),
  })
  return { ...result, slugs: result.touchedSlugs }
}

export default syncHandler
