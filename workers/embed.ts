import { embeddingProviderFor, runEmbed, type EmbedMode } from '../src/embedding/store/index.js'
import { ValidationError } from '../src/errors/index.js'
import type { JobHandler } from '../src/queue/handler.js'

export interface EmbedJobData {
  /** `stale` (default): chunks without an embedding. `all`: every chunk, page by page. */
  mode?: EmbedMode
}

function modeOf(data: Record<string, unknown>): EmbedMode {
  const mode = data.mode ?? 'stale'
  if (mode !== 'stale' && mode !== 'all') {
    throw new ValidationError('embed_invalid_mode', `Unknown embed mode ${JSON.stringify(mode)}.`, { hint: 'Use {"mode": "stale"} or {"mode": "all"}.' })
  }
  return mode
}

/**
 * The `embed` job: embeds stale chunks (or all of them) with the configured provider and reports
 * progress per batch. A provider that keeps failing ends the run early with the chunks left stale
 * and the error in the result; the job itself completes, because nothing was lost.
 */
const handler: JobHandler = async (ctx) => {
  const mode = modeOf(ctx.data)
  const provider = embeddingProviderFor(ctx.config.embedding)
  return runEmbed(ctx.db, provider, mode, { signal: ctx.signal, onProgress: (p) => ctx.progress({ ...p, unit: 'chunks' }) })
}

export default handler
