import { baseResponse, mapRows, noEmbeddingsNotice, resolveEmbedder, type SearchContext } from './context.js'
import { fuseChunks } from './chunk-fusion.js'
import type { SearchPlan } from './options.js'
import { keywordChunkRows, keywordPageRows } from './result-cache.js'
import { withSearchTransaction } from './transaction.js'
import type { SearchResponse } from './types.js'
import { embedQuery } from './vector-search.js'
import { hasEmbeddings, vectorChunkRows } from './vector.js'

/** Chunks each side contributes per result asked for (offset included), and at least. */
export const HYBRID_CANDIDATE_FACTOR = 5
export const HYBRID_CANDIDATE_MIN = 50

export function hybridCandidates(plan: Pick<SearchPlan, 'offset' | 'limit'>): number {
  return Math.max(HYBRID_CANDIDATE_MIN, HYBRID_CANDIDATE_FACTOR * (plan.offset + plan.limit))
}

/**
 * Weight of the keyword side in the per-chunk fusion (chunk-fusion.ts), chosen on the tuning
 * halves of every set in bench/retrieval (bench/retrieval/vector-windows.ts; see
 * src/search/README.md): BM25 mapped onto [0, 1] within the keyword list weighs 0.3, the cosine
 * similarity of the same chunk (times the source factor) 0.7.
 */
export const HYBRID_KEYWORD_WEIGHT = 0.3

/**
 * Keyword (BM25, any word) and vector candidates as chunks, fused per chunk (fuseChunks): the
 * keyword list's top chunks and the nearest chunks, each scored by its normalised BM25 and by
 * its own cosine similarity, then each page stands for its best chunk. Cosine similarities of a
 * small local model sit in a narrow band, so a chunk holding the query's words still moves up
 * by up to the keyword weight, and a chunk that shares no word with the question can still rise
 * on meaning alone. The query is embedded while the keyword side runs, outside any
 * transaction, so a slow provider never holds a database connection. Without vectors of the
 * active model, or when the query cannot be embedded, the response says it ran keyword-only
 * (`keyword_only` and `notice`) and carries the keyword search's results.
 */
export async function hybridSearch(context: SearchContext, query: string, plan: SearchPlan): Promise<SearchResponse> {
  const embedder = resolveEmbedder(context)
  const response = baseResponse(query, 'hybrid', plan)
  const present = await hasEmbeddings(context.db, embedder.model)
  if (!present) {
    const rows = await keywordPageRows(context.db, plan, query)
    return {
      ...response,
      ran: ['keyword'],
      match: 'any',
      keyword_only: 'no_embeddings',
      notice: `Ran keyword-only. ${noEmbeddingsNotice(embedder.model)}`,
      results: mapRows(rows, query, plan, context),
    }
  }
  const depth = hybridCandidates(plan)
  const legPlan: SearchPlan = { ...plan, offset: 0, limit: depth }
  const embedding = embedQuery(embedder, query, context.signal)
  const keywordChunks = await keywordChunkRows(context.db, legPlan, query)
  const { literal, error } = await embedding
  if (literal === null) {
    return {
      ...response,
      ran: ['keyword'],
      match: 'any',
      keyword_only: 'embedding_failed',
      notice: `Ran keyword-only: the query could not be embedded (${error.code}: ${error.message})`,
      results: mapRows(await keywordPageRows(context.db, plan, query), query, plan, context),
    }
  }
  const vectorChunks = await withSearchTransaction(
    context.db,
    (tx) => vectorChunkRows(tx, legPlan, literal, embedder.model, keywordChunks.map((r) => r.chunk_id)),
    { efSearch: depth },
  )
  const fused = fuseChunks(keywordChunks, vectorChunks, HYBRID_KEYWORD_WEIGHT)
  return {
    ...response,
    ran: ['keyword', 'vector'],
    match: 'any',
    model: embedder.model,
    results: mapRows(fused.slice(plan.offset, plan.offset + plan.limit), query, plan, context),
  }
}
