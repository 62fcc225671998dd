import { binaryContentError, classifyContentType, computeContentHash, validateIngestionEvent, type IngestionEvent } from '../src/intake/ingestion/event.js'
import { eventToMarkdown } from '../src/intake/ingestion/to-markdown.js'
import { defineJob, type JobContext } from '../src/queue/index.js'

interface IngestCaptureResult {
  slug: string
  status: 'created' | 'updated' | 'skipped'
  content_hash: string
  chunks: number
  /** The `embed` job queued for the new chunks, or null (nothing changed, one already waiting, or embedded inline). */
  embed_job_id: string | null
}

/** Slug: job data `slug`, then `metadata.slug`, then `inbox/<YYYY-MM-DD>-<hash6>` (UTC date of receipt). */
function resolveIngestSlug(data: Record<string, unknown>, event: IngestionEvent, now: Date): string {
  if (typeof data.slug === 'string' && data.slug.trim() !== '') return data.slug
  const fromMetadata = event.metadata?.slug
  if (typeof fromMetadata === 'string' && fromMetadata.trim() !== '') return fromMetadata
  const received = event.received_at ? new Date(event.received_at) : now
  return `inbox/${received.toISOString().slice(0, 10)}-${computeContentHash(event).slice(0, 6)}`
}

/** Queues one `embed` job for stale chunks unless one is already waiting. */
async function queueEmbed(ctx: JobContext): Promise<string | null> {
  const { openQueue } = await import('../src/queue/index.js')
  const queue = await openQueue({ db: ctx.db, config: ctx.config, logger: ctx.logger })
  try {
    if ((await queue.list({ name: 'embed', status: 'waiting', limit: 1 })).length > 0) return null
    return (await queue.submit('embed', { mode: 'stale' })).id
  } finally {
    await queue.close()
  }
}

/**
 * The `ingest_capture` job: turns one validated ingestion event into a page through the standard
 * import. Binary content ends the job dead with a processor hint. Embedding is a separate `embed`
 * job unless the submitter asked for `noEmbed: false`.
 */
const handler = defineJob({
  name: 'ingest_capture',
  run: async (ctx) => {
    const event = validateIngestionEvent(ctx.data.event)
    const type = classifyContentType(event.content_type)
    const now = new Date()
    const slug = resolveIngestSlug(ctx.data, event, now)
    if (event.content_encoding === 'base64') return ingestDocument(ctx, event, slug)
    if (type.kind === 'binary') throw binaryContentError(type.type)
    const capturedVia = `ingest:${event.source_id}`
    const markdown = eventToMarkdown(type.type, event.content, capturedVia, now)
    const noEmbed = ctx.data.noEmbed !== false
    const { importPage } = await import('../src/pages/import-page.js')
    const embedder = noEmbed ? null : await (await import('../src/models/index.js')).activeEmbeddingProvider(ctx.db, ctx.config)
    const imported = await importPage(
      ctx.db,
      { slug, kind: 'markdown', content: markdown, provenance: { ingestedVia: 'ingest_capture', ingestedAt: now, sourceUri: event.source_uri ?? null, sourceKind: event.source_id } },
      { embedder, maxFences: ctx.config.import.maxFencesPerPage, signal: ctx.signal, onWarning: (m) => ctx.logger.warn(m) },
    )
    const embedJobId = noEmbed && imported.status !== 'skipped' && imported.chunks > 0 ? await queueEmbed(ctx) : null
    const result: IngestCaptureResult = { slug: imported.slug, status: imported.status, content_hash: imported.contentHash, chunks: imported.chunks, embed_job_id: embedJobId }
    return result
  },
})

/** A document event (base64 bytes) through its converter: the pages it yields, the receipt naming the first. */
async function ingestDocument(ctx: JobContext, event: IngestionEvent, slug: string): Promise<IngestCaptureResult> {
  const { converterFor } = await import('../src/convert/index.js')
  const bytes = Buffer.from(event.content, 'base64')
  const fileName = typeof event.metadata?.file_name === 'string' ? event.metadata.file_name : 'ingested'
  if (converterFor(fileName, event.content_type, bytes) === null) throw binaryContentError(event.content_type)
  const { documentSlugForPath, importDocument } = await import('../src/intake/import/index.js')
  const explicit = typeof ctx.data.slug === 'string' || typeof event.metadata?.slug === 'string'
  const target = explicit || fileName === 'ingested' ? slug : `inbox/${documentSlugForPath(fileName)}`
  const result = await importDocument(
    ctx.db,
    {
      bytes,
      name: fileName,
      contentType: event.content_type,
      sourceId: 'default',
      sourceUri: event.source_uri ?? `${event.source_id}:${fileName}`,
      sourceKind: event.source_id,
      slug: target,
      slugPrefix: undefined,
      writtenVia: 'ingest_capture',
    },
    { maxFences: ctx.config.import.maxFencesPerPage, signal: ctx.signal, onWarning: (m) => ctx.logger.warn(m), autoLink: !ctx.data.untrusted_payload },
  )
  const first = result.pages[0]
  const chunks = result.pages.reduce((n, p) => n + p.chunks, 0)
  const embedJobId = ctx.data.noEmbed !== false && chunks > 0 ? await queueEmbed(ctx) : null
  return { slug: first?.slug ?? target, status: first?.status ?? 'skipped', content_hash: first?.contentHash ?? result.sourceHash, chunks, embed_job_id: embedJobId }
}

export default handler
