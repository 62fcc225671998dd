import { baseResponse, mapRows, noEmbeddingsNotice, resolveEmbedder, type SearchContext } from './context.js'
import { fuseHybrid } from './fusion.js'
import type { SearchPlan } from './options.js'
import { keywordPageRows } from './result-cache.js'
import { withSearchTransaction } from './transaction.js'
import type { SearchResponse, SearchResult } from './types.js'
import { embedQuery } from './vector-search.js'
import { hasEmbeddings, vectorInnerLimit, vectorRows } from './vector.js'

/** Each side contributes this many candidates per result asked for (offset included). */
export const HYBRID_CANDIDATE_FACTOR = 2
export const HYBRID_CANDIDATE_MIN = 30

export function hybridCandidates(plan: Pick<SearchPlan, 'offset' | 'limit'>): number {
  return Math.max(HYBRID_CANDIDATE_MIN, HYBRID_CANDIDATE_FACTOR * (plan.offset + plan.limit))
}

/**
 * How the two lists are fused, chosen on the tuning halves of every set in bench/retrieval (see
 * bench/retrieval/tune-fusion.ts and src/search/README.md): a convex combination, keyword
 * scores mapped onto [0, 1] within their list and weighted 0.75, cosine similarity (times the
 * source factor) as it is, weighted 0.25. A page only one list holds gets nothing from the other.
 */
export const HYBRID_FUSION = { method: 'convex', keywordWeight: 0.75, norm: 'minmax', vectorNorm: 'raw', k: 0 } as const

/**
 * Keyword (BM25, any word) and vector candidates, each already ranked with the source factor,
 * fused by HYBRID_FUSION. The keyword side carries three quarters of the weight: its scores
 * spread the candidates far apart, while cosine similarities of a small local model sit in a
 * narrow band, so the vector side mostly reorders pages the words already found and lifts pages
 * that share no word with the question. The query is embedded while the keyword side runs,
 * outside any transaction, so a slow provider never holds a database connection. Without
 * vectors of the active model, or when the query cannot be embedded, the response says it ran
 * keyword-only (`keyword_only` and `notice`) and carries keyword scores.
 */
export async function hybridSearch(context: SearchContext, query: string, plan: SearchPlan): Promise<SearchResponse> {
  const embedder = resolveEmbedder(context)
  const response = baseResponse(query, 'hybrid', plan)
  const window = (results: SearchResult[]): SearchResult[] => results.slice(plan.offset, plan.offset + plan.limit)
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
  const keywordRowsFound = await keywordPageRows(context.db, legPlan, query)
  const keywordSide = mapRows(keywordRowsFound, query, plan, context)
  const { literal, error } = await embedding
  if (literal === null) {
    return {
      ...response,
      ran: ['keyword'],
      match: 'any',
      keyword_only: 'embedding_failed',
      notice: `Ran keyword-only: the query could not be embedded (${error.code}: ${error.message})`,
      results: window(keywordSide),
    }
  }
  const vectorSide = mapRows(
    await withSearchTransaction(context.db, (tx) => vectorRows(tx, legPlan, literal, embedder.model), { efSearch: vectorInnerLimit(legPlan) }),
    query,
    plan,
    context,
  )
  const fused = fuseHybrid(keywordSide, vectorSide, { ...HYBRID_FUSION, depth })
  return {
    ...response,
    ran: ['keyword', 'vector'],
    match: 'any',
    model: embedder.model,
    results: window(fused.map((f) => ({ ...f.item, score: f.score }))),
  }
}
