/** How much of each hit a result carries. */
export const DETAIL_LEVELS = ['low', 'medium', 'high'] as const
export type Detail = (typeof DETAIL_LEVELS)[number]

/** Options shared by every search mode; names follow the service specification. */
export interface SearchOptions {
  /** Results per call, 1–100 (default 10). */
  limit?: number
  /** Results to skip, 0–1000 (default 0). */
  offset?: number
  /** `low`, `medium` (default) or `high`; trimmed and lower-cased. `high` disables the source boost. */
  detail?: string
  /** Only chunks of this code language (canonical id such as `typescript`, or a fence tag such as `ts`). */
  language?: string
  /** Only chunks whose symbol_type equals this (`function`, `class`, …). */
  symbolKind?: string
  /** Only pages of this source. */
  sourceId?: string
  /** Only pages of this type (front matter `type`: note, person, …). */
  pageType?: string
  /** Only pages carrying this tag. */
  tag?: string
  /** Extra hard-excluded slug prefixes for this call. */
  exclude_slug_prefixes?: readonly string[]
  /** Prefixes removed from the hard-exclude set for this call. */
  include_slug_prefixes?: readonly string[]
  /** Boost results within `walkDepth` call-graph hops of this symbol's definition (see near-symbol.ts). */
  nearSymbol?: string
  /** Hops from nearSymbol that still earn a boost, 0–3 (default 1). */
  walkDepth?: number
  /** Rank results the brain's links tie together higher (graph-boost.ts); default BRAIN_SEARCH_GRAPH_BOOST, off. */
  graphBoost?: boolean
  /** Re-score the first results with the cross-encoder (rerank.ts): true needs one, false skips it; default search.reranker. */
  rerank?: boolean
}

/**
 * One search hit: a page with the chunk that earned it its place. Field names are snake_case and
 * stable; the CLI's JSON and the MCP tools expose them unchanged.
 */
export interface SearchResult {
  slug: string
  source_id: string
  title: string
  type: string
  page_kind: 'markdown' | 'code'
  /** Keyword: BM25 × source factor. Vector: cosine similarity × source factor. Hybrid: 0.3 × normalised BM25 + 0.7 × that cosine, per chunk (HYBRID_KEYWORD_WEIGHT). */
  score: number
  snippet: string
  chunk_id: number
  chunk_index: number
  chunk_source: string
  language: string | null
  symbol_name: string | null
  symbol_name_qualified: string | null
  symbol_type: string | null
  start_line: number | null
  end_line: number | null
  /** The page was last written more than STALE_AFTER_DAYS ago. */
  stale: boolean
  /** ISO 8601. */
  updated_at: string
}

export type SearchMode = 'keyword' | 'vector' | 'hybrid'

/** Why a hybrid search ran on keywords alone. */
export type KeywordOnlyReason = 'no_embeddings' | 'embedding_failed'

export interface SearchResponse {
  query: string
  /** The mode asked for. */
  mode: SearchMode
  /** The modes that actually ran: hybrid without usable vectors says ['keyword']. */
  ran: Array<'keyword' | 'vector'>
  /** Set when a hybrid search fell back to keywords; `notice` says why in words. */
  keyword_only: KeywordOnlyReason | null
  notice: string | null
  /**
   * Keyword candidates: `any` query word (keyword and hybrid search, ranked by BM25); `all` and
   * `two` are kept for chunk-level callers that ask for them.
   */
  match: 'all' | 'any' | 'two' | null
  /** Embedding model whose vectors were compared, when the vector side ran. */
  model: string | null
  /** The re-ranker that ordered the results; present only when one ran in time. */
  reranker?: string
  detail: Detail
  limit: number
  offset: number
  results: SearchResult[]
}
