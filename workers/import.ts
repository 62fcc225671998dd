import { UsageError } from '../src/errors/index.js'
import type { JobHandler } from '../src/queue/handler.js'

interface ImportJobData {
  path?: unknown
  strategy?: unknown
  include?: unknown
  exclude?: unknown
  sourceId?: unknown
  noEmbed?: unknown
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** Imports a folder (git or not) into the brain: the job behind `brain import`. */
const importHandler: JobHandler = async (ctx) => {
  const data = ctx.data as ImportJobData
  if (typeof data.path !== 'string' || data.path === '') {
    throw new UsageError('import_requires_path', 'The import job needs data.path, the folder to import.')
  }
  const { parseSyncStrategy } = await import('../src/sources/index.js')
  const { importFolder } = await import('../src/import/index.js')
  const strategy = parseSyncStrategy(data.strategy ?? 'auto')
  const { embeddingProviderFor } = await import('../src/embedding/store/index.js')
  return importFolder(ctx.db, data.path, {
    strategy,
    include: stringList(data.include),
    exclude: stringList(data.exclude),
    sourceId: typeof data.sourceId === 'string' ? data.sourceId : 'default',
    embedder: data.noEmbed === true ? null : embeddingProviderFor(ctx.config.embedding),
    maxFences: ctx.config.import.maxFencesPerPage,
    signal: ctx.signal,
    onWarning: (message) => ctx.logger.warn(message),
    onProgress: (p) => ctx.progress({ done: p.done, total: p.total, message: p.phase === 'embed' ? 'embedding' : p.path, unit: p.phase === 'embed' ? 'chunks' : 'files' }),
  })
}

export default importHandler
