import { z } from 'zod'
import { UsageError } from '../src/errors/index.js'
import type { SyncProgress, SyncRequest, SyncResult } from '../src/sync/index.js'
import { defineJob } from '../src/queue/handler.js'

const text = z
  .string()
  .refine((value) => value.trim() !== '')
  .nullish()
  .transform((value) => value ?? undefined)
const flag = z
  .unknown()
  .optional()
  .transform((value) => value === true)

/** The directory may come as `repo` (CLI), `repoPath` (autopilot cycle) or `dir`; each means the same thing. */
const data = z
  .looseObject({ sourceId: text, repo: text, repoPath: text, dir: text, all: flag, full: flag, dryRun: flag, noEmbed: flag, noExtract: flag })
  .transform((d): SyncRequest => ({ sourceId: d.sourceId, all: d.all, repo: d.repo ?? d.repoPath ?? d.dir, full: d.full, dryRun: d.dryRun, noEmbed: d.noEmbed, noExtract: d.noExtract }))

function progressMessage(p: SyncProgress): string {
  if (p.phase === 'plan') return `${p.sourceId}: reading git history`
  if (p.phase === 'embed') return `${p.sourceId}: embedding`
  return `${p.sourceId}: ${p.path ?? ''}`.trimEnd()
}

/**
 * The job behind `brain sync` and the autopilot cycle's sync phase. The result carries the
 * touched slugs twice: `touchedSlugs`, and `slugs`, which the cycle hands to its extract phase.
 */
export default defineJob({
  name: 'sync',
  data,
  invalid: (problem) => new UsageError('invalid_sync_data', `Sync job data.${problem.key} must be a non-empty string.`),
  async run(ctx) {
    const request = ctx.data
    const { runSync } = await import('../src/sync/index.js')
    const { activeEmbeddingProvider } = await import('../src/models/index.js')
    const result: SyncResult = await runSync(ctx.db, request, {
      embedder: request.noEmbed ? null : await activeEmbeddingProvider(ctx.db, ctx.config),
      holder: `sync job ${ctx.jobId}`,
      maxFences: ctx.config.import.maxFencesPerPage,
      signal: ctx.signal,
      onWarning: (message) => ctx.logger.warn(message),
      onProgress: (p) => ctx.progress({ done: p.done, total: p.total, message: progressMessage(p) }),
    })
    return { ...result, slugs: result.touchedSlugs }
  },
})
