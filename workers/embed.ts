import { runEmbed } from '../src/embedding/store/index.js'
import { activeEmbeddingProvider } from '../src/models/index.js'
import { defineJob } from '../src/queue/index.js'

/**
 * The `embed` job: embeds stale chunks (or all of them) with the configured provider and reports
 * progress per batch. A provider that keeps failing ends the run early with the chunks left stale
 * and the error in the result; the job itself completes, because nothing was lost.
 */
export default defineJob({
  name: 'embed',
  async run(ctx) {
    const provider = await activeEmbeddingProvider(ctx.db, ctx.config)
    return runEmbed(ctx.db, provider, ctx.data.mode, { signal: ctx.signal, onProgress: (p) => ctx.progress({ ...p, unit: 'chunks' }) })
  },
})
