import { baseResponse, mapRows, requireQuery, type SearchContext } from './context.js'
import { hybridSearch } from './hybrid.js'
import { keywordRows, type KeywordMatch } from './keyword.js'
import { searchNearSymbol } from './near-symbol.js'
import { planSearch } from './options.js'
import { queryTerms } from './snippet.js'
import { withSearchTransaction } from './transaction.js'
import type { ResultRow } from './sql.js'
import type { SearchOptions, SearchResponse, SearchResult } from './types.js'
import { vectorSearchResponse } from './vector-search.js'

/**
 * Keyword search, one result per page. Every term must match (web-search syntax); when nothing
 * matches a query of several words, two of its words must, then any one, and `match` says which.
 * Later pages keep the match their query's first page used.
 */
export async function search(context: SearchContext, queryText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  if (options.nearSymbol !== undefined) return searchNearSymbol(context, options, (inner) => search(context, queryText, inner))
  const query = requireQuery(queryText, 'search')
  const plan = planSearch(options, context.settings)
  const severalWords = queryTerms(query).length >= 2
  const { rows, match } = await withSearchTransaction(context.db, async (tx) => {
    // Relax step by step: pages sharing two of the words are better evidence than pages sharing one.
    const steps: KeywordMatch[] = severalWords ? ['all', 'two', 'any'] : ['all']
    let found: { rows: ResultRow[]; match: KeywordMatch } = { rows: [], match: 'all' }
    for (const match of steps) {
      found = { rows: await keywordRows(tx, plan, { query, match, perPage: true }), match }
      if (found.rows.length > 0) break
      // Past the first page an empty window may just mean the end of this match's results.
      if (plan.offset > 0 && (await keywordRows(tx, { ...plan, offset: 0, limit: 1 }, { query, match, perPage: true })).length > 0) break
    }
    return found
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
  if (options.nearSymbol !== undefined) return searchNearSymbol(context, options, (inner) => query(context, questionText, inner))
  const question = requireQuery(questionText, 'query')
  return hybridSearch(context, question, planSearch(options, context.settings))
}
