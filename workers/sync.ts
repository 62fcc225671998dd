import type { SyncProgress, SyncResult } from '../src/intake/sync/index.js'
import { defineJob } from '../src/queue/index.js'

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
  async run(ctx) {
    const request = ctx.data
    const { runSync } = await import('../src/intake/sync/index.js')
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
