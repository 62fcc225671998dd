import { toVectorLiteral, type EmbeddingProvider } from '../embedding/index.js'
import { serializeError, type ErrorEnvelope } from '../errors/index.js'
import { baseResponse, mapRows, noEmbeddingsNotice, resolveEmbedder, type SearchContext } from './context.js'
import type { SearchPlan } from './options.js'
import { withSearchTransaction } from './transaction.js'
import type { SearchResponse } from './types.js'
import { hasEmbeddings, vectorInnerLimit, vectorRows } from './vector.js'

/** The query's vector as a pgvector literal, or why there is none. */
export type QueryEmbedding = { literal: string; error: null } | { literal: null; error: ErrorEnvelope }

/** Never rejects: a provider failure is returned, so hybrid search can fall back to keywords. */
export async function embedQuery(embedder: EmbeddingProvider, query: string, signal?: AbortSignal): Promise<QueryEmbedding> {
  try {
    const [vector] = await embedder.embed([query], { signal })
    return { literal: toVectorLiteral(vector!), error: null }
  } catch (err) {
    return { literal: null, error: serializeError(err) }
  }
}

export async function vectorSearchResponse(context: SearchContext, query: string, plan: SearchPlan): Promise<SearchResponse> {
  const embedder = resolveEmbedder(context)
  const response = { ...baseResponse(query, 'vector', plan), model: embedder.model }
  if (!(await hasEmbeddings(context.db, embedder.model))) return { ...response, notice: noEmbeddingsNotice(embedder.model) }
  const [vector] = await embedder.embed([query], { signal: context.signal })
  const literal = toVectorLiteral(vector!)
  const rows = await withSearchTransaction(context.db, (tx) => vectorRows(tx, plan, literal, embedder.model), { efSearch: vectorInnerLimit(plan) })
  return { ...response, ran: ['vector'], results: mapRows(rows, query, plan, context) }
}
