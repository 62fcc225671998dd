import { embeddingProviderOfModel, runModelSwitch } from '../src/models/index.js'
import { defineJob } from '../src/queue/index.js'

/**
 * The `switch-model` job: embeds every chunk with the model `brain models use` chose, beside the
 * vectors search keeps using, then makes it the active model (see src/models/switch.ts). Progress
 * carries chunks done, the total and an estimate of the time left.
 */
export default defineJob({
  name: 'switch-model',
  async run(ctx) {
    const provider = await embeddingProviderOfModel(ctx.config.home, ctx.data.model, ctx.config.embedding)
    return runModelSwitch(ctx.db, ctx.data.model, provider, { signal: ctx.signal, onProgress: (p) => ctx.progress({ ...p, unit: 'chunks' }) })
  },
})
