import { createHash } from 'node:crypto'
import type { SqlExecutor } from '../../db/index.js'
import { toVectorLiteral, type EmbeddingProvider } from '../index.js'
import { serializeError, type ErrorEnvelope } from '../../errors/index.js'

export interface PendingChunk {
  id: number
  chunkText: string
}

export interface EmbedBatchResult {
  embedded: number
  failed: number
  error: ErrorEnvelope | null
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex')
}

/**
 * Chunks per provider call and per UPDATE. The engine holds a statement's rows whole (its JSON
 * parameter, the rows it changes and the triggers' transition tables), and the embedded engine
 * keeps the memory it once grew to for as long as it stays open: one UPDATE of 3,263 vectors grew
 * its memory from 189 to 470 MB.
 */
const EMBED_SLICE_CHUNKS = 200

/**
 * Embeds the given chunks and stores their vectors, a slice at a time. A failing provider call
 * leaves its chunks and those after them with NULL embeddings (they stay stale for
 * `embed --stale`) and is reported, not thrown; the slices before it stay stored. A chunk whose
 * text changed while its vector was computed is left alone.
 */
export async function embedAndStore(db: SqlExecutor, provider: EmbeddingProvider, chunks: readonly PendingChunk[], signal?: AbortSignal, sliceChunks = EMBED_SLICE_CHUNKS): Promise<EmbedBatchResult> {
  let embedded = 0
  for (let start = 0; start < chunks.length; start += sliceChunks) {
    const slice = chunks.slice(start, start + sliceChunks)
    let vectors: number[][]
    try {
      vectors = await provider.embed(
        slice.map((c) => c.chunkText),
        { signal },
      )
    } catch (err) {
      return { embedded, failed: chunks.length - embedded, error: serializeError(err) }
    }
    embedded += await storeVectors(db, provider.model, slice, vectors)
  }
  return { embedded, failed: chunks.length - embedded, error: null }
}

async function storeVectors(db: SqlExecutor, model: string, chunks: readonly PendingChunk[], vectors: readonly number[][]): Promise<number> {
  const payload = chunks.map((c, i) => ({ id: c.id, text_md5: md5(c.chunkText), embedding: toVectorLiteral(vectors[i]!) }))
  const { rowCount } = await db.query(
    `UPDATE content_chunks c SET embedding = x.embedding::vector, embedded_at = now(), model = $2
     FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, text_md5 text, embedding text)
     WHERE c.id = x.id AND md5(c.chunk_text) = x.text_md5`,
    [JSON.stringify(payload), model],
  )
  return rowCount
}

/** Chunks of the given pages that have no embedding yet. */
export async function pendingChunksOfPages(db: SqlExecutor, pageIds: readonly number[]): Promise<PendingChunk[]> {
  if (pageIds.length === 0) return []
  const { rows } = await db.query<{ id: number; chunk_text: string }>(
    `SELECT id, chunk_text FROM content_chunks WHERE page_id = ANY($1::bigint[]) AND embedding IS NULL ORDER BY page_id, chunk_index`,
    [pageIds],
  )
  return rows.map((r) => ({ id: r.id, chunkText: r.chunk_text }))
}
