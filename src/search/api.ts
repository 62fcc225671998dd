import { baseResponse, mapRows, requireQuery, type SearchDeps } from './deps.js'
import { hybridSearch } from './hybrid.js'
import { keywordRows, type KeywordMatch } from './keyword.js'
import { searchWithGraphBoost } from './graph-boost.js'
import { searchNearSymbol } from './near-symbol.js'
import { searchWithRerank } from './rerank.js'
import { planSearch } from './options.js'
import { keywordPageRows } from './result-cache.js'
import { withSearchTransaction } from './sql.js'
import type { SearchOptions, SearchResponse, SearchResult } from './types.js'
import { vectorSearchResponse } from './vector.js'

/**
 * Keyword search, one result per page: chunks holding any of the query's words (web-search
 * syntax: "phrases" must match, -exclusions must not, word* matches a prefix), ranked by BM25.
 */
export async function search(deps: SearchDeps, queryText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  if (options.nearSymbol !== undefined) return searchNearSymbol(deps, options, (inner) => search(deps, queryText, inner))
  if (options.graphBoost ?? deps.settings.graphBoost) return searchWithGraphBoost(deps, options, (inner) => search(deps, queryText, inner))
  const query = requireQuery(queryText, 'search')
  const plan = planSearch(options, deps.settings)
  const rows = await keywordPageRows(deps.db, plan, query)
  return { ...baseResponse(query, 'keyword', plan), ran: ['keyword'], match: 'any', results: mapRows(rows, query, plan, deps) }
}

/**
 * Chunk-level keyword search: the same ranking without the one-result-per-page step, for
 * two-pass retrieval (find chunks, then read around them).
 */
export async function searchKeywordChunks(deps: SearchDeps, queryText: string, options: SearchOptions & { match?: KeywordMatch } = {}): Promise<SearchResult[]> {
  const query = requireQuery(queryText, 'search')
  const plan = planSearch(options, deps.settings)
  const rows = await withSearchTransaction(deps.db, (tx) => keywordRows(tx, plan, { query, match: options.match ?? 'all', perPage: false }))
  return mapRows(rows, query, plan, deps)
}

/** Vector search alone: cosine similarity × source factor, one result per page. */
export async function vectorSearch(deps: SearchDeps, queryText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  const query = requireQuery(queryText, 'query')
  return vectorSearchResponse(deps, query, planSearch(options, deps.settings))
}

/** Hybrid search: the keyword and vector lists fused into one ranking (see fusion.ts). */
export async function query(deps: SearchDeps, questionText: string, options: SearchOptions = {}): Promise<SearchResponse> {
  if (options.nearSymbol !== undefined) return searchNearSymbol(deps, options, (inner) => query(deps, questionText, inner))
  if (options.graphBoost ?? deps.settings.graphBoost) return searchWithGraphBoost(deps, options, (inner) => query(deps, questionText, inner))
  const question = requireQuery(questionText, 'query')
  if (options.rerank !== false) return searchWithRerank(deps, question, options, (inner) => query(deps, question, inner))
  return hybridSearch(deps, question, planSearch(options, deps.settings))
}
