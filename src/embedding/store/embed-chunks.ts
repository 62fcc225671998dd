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
 * Embeds the given chunks and stores their vectors. A failing provider call leaves those chunks
 * with NULL embeddings (they stay stale for `embed --stale`) and is reported, not thrown. A chunk
 * whose text changed while its vector was computed is left alone.
 */
export async function embedAndStore(db: SqlExecutor, provider: EmbeddingProvider, chunks: readonly PendingChunk[], signal?: AbortSignal): Promise<EmbedBatchResult> {
  if (chunks.length === 0) return { embedded: 0, failed: 0, error: null }
  let vectors: number[][]
  try {
    vectors = await provider.embed(
      chunks.map((c) => c.chunkText),
      { signal },
    )
  } catch (err) {
    return { embedded: 0, failed: chunks.length, error: serializeError(err) }
  }
  const payload = chunks.map((c, i) => ({ id: c.id, text_md5: md5(c.chunkText), embedding: toVectorLiteral(vectors[i]!) }))
  const { rowCount } = await db.query(
    `UPDATE content_chunks c SET embedding = x.embedding::vector, embedded_at = now(), model = $2
     FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, text_md5 text, embedding text)
     WHERE c.id = x.id AND md5(c.chunk_text) = x.text_md5`,
    [JSON.stringify(payload), provider.model],
  )
  return { embedded: rowCount, failed: chunks.length - rowCount, error: null }
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
