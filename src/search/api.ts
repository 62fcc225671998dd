import { baseResponse, mapRows, requireQuery, type SearchContext } from './context.js'
import { hybridSearch } from './hybrid.js'
import { keywordRows, type KeywordMatch } from './keyword.js'
import { planSearch } from './options.js'
import { queryTerms } from './snippet.js'
import { withSearchTransaction } from './transaction.js'
import type { SearchOptions, SearchResponse, SearchResult } from './types.js'
import { vectorSearchResponse } from './vector-search.js'

/**
 * Keyword search, one result per page. Every term must match (web-search syntax); when that finds
 * nothing on the first page of a query of several words, any term may match, and `match` says so.
 */
export async function search(context: SearchContext, queryText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  const query = requireQuery(queryText, 'search')
  const plan = planSearch(options, context.settings)
  const { rows, match } = await withSearchTransaction(context.db, async (tx) => {
    const all = await keywordRows(tx, plan, { query, match: 'all', perPage: true })
    if (all.length > 0 || plan.offset > 0 || queryTerms(query).length < 2) return { rows: all, match: 'all' as const }
    return { rows: await keywordRows(tx, plan, { query, match: 'any', perPage: true }), match: 'any' as const }
  })
  return { ...baseResponse(query, 'keyword', plan), ran: ['keyword'], match, results: mapRows(rows, query, plan, context) }
}

/**
 * Chunk-level keyword search: the same ranking without the one-result-per-page step, for
 * two-pass retrieval (find chunks, then read around them).
 */
export async function searchKeywordChunks(
  context: SearchContext,
  queryText: string,
  options: SearchOptions & { match?: KeywordMatch } = {},
): Promise<SearchResult[]> {
  const query = requireQuery(queryText, 'search')
  const plan = planSearch(options, context.settings)
  const rows = await withSearchTransaction(context.db, (tx) => keywordRows(tx, plan, { query, match: options.match ?? 'all', perPage: false }))
  return mapRows(rows, query, plan, context)
}

/** Vector search alone: cosine similarity × source factor, one result per page. */
export async function vectorSearch(context: SearchContext, queryText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  const query = requireQuery(queryText, 'query')
  return vectorSearchResponse(context, query, planSearch(options, context.settings))
}

/** Hybrid search: the keyword and vector lists fused by reciprocal rank fusion. */
export async function query(context: SearchContext, questionText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  const question = requireQuery(questionText, 'query')
  return hybridSearch(context, question, planSearch(options, context.settings))
}
