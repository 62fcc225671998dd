import { defineJob } from '../src/queue/index.js'

/** Imports a folder (git or not) into the brain: the job behind `brain import`. */
export default defineJob({
  name: 'import',
  async run(ctx) {
    const { parseSyncStrategy } = await import('../src/intake/sources/index.js')
    const { importFolder } = await import('../src/intake/import/index.js')
    const { activeEmbeddingProvider } = await import('../src/models/index.js')
    const job = ctx.data
    return importFolder(ctx.db, job.path, {
      strategy: parseSyncStrategy(job.strategy ?? 'auto'),
      include: job.include,
      exclude: job.exclude,
      sourceId: job.sourceId,
      embedder: job.noEmbed ? null : await activeEmbeddingProvider(ctx.db, ctx.config),
      maxFences: ctx.config.import.maxFencesPerPage,
      signal: ctx.signal,
      onWarning: (message) => ctx.logger.warn(message),
      onProgress: (p) => ctx.progress({ done: p.done, total: p.total, message: p.phase === 'embed' ? 'embedding' : p.path, unit: p.phase === 'embed' ? 'chunks' : 'files' }),
    })
  },
})
