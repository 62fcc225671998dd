/**
 * Search over pages and chunks: keyword (full text), vector (embeddings) and hybrid (both, fused).
 * `search` and `query` are the operations the CLI and the MCP tools expose.
 * May import: chunking, code, config, db, embedding, errors, models.
 */
export { search, query, vectorSearch, searchKeywordChunks } from './api.js'
export { searchDeps, type SearchDeps } from './deps.js'
export { latestDatedDay, searchPeriod, PERIOD_MAX_PAGES, type PeriodBounds } from './period.js'
/** The names `brain/search` was published with, kept for the programs that import them. */
export { searchDeps as searchContext, type SearchDeps as SearchContext } from './deps.js'
export type { SearchOptions, SearchResult, SearchResponse, SearchMode, KeywordOnlyReason } from './types.js'
export type { KeywordMatch } from './keyword.js'
export { planSearch, DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET, type SearchPlan, type SearchSettings } from './options.js'
export { DEFAULT_SOURCE_BOOSTS, parseSourceBoost, resolveSourceBoosts, sourceFactor, type SourceBoost } from './options.js'
export { DEFAULT_HARD_EXCLUDES, parseExcludeList, resolveExcludes, isExcluded } from './options.js'
export { detailGate, type DetailGate } from './options.js'
export { DETAIL_LEVELS, type Detail } from './types.js'
export { isStale, STALE_AFTER_DAYS, queryTerms } from './rows.js'
export { plainSnippetText, withLinksAsText, tableCells, isTableDelimiter, matchSpans, markMatches } from './snippet-text.js'
export { SEARCH_STATEMENT_TIMEOUT_MS, withSearchTransaction } from './sql.js'
export { setSearchLanguage, getSearchLanguage, listSearchLanguages, SEARCH_LANGUAGE_KEY, DEFAULT_SEARCH_LANGUAGE, type ReindexProgress } from './language.js'
