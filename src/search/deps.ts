import type { EmbeddingConfig } from '../config/index.js'
import type { Database } from '../db/index.js'
import { embeddingProviderFor } from '../embedding/store/index.js'
import type { EmbeddingProvider } from '../embedding/index.js'
import { activeEmbeddingProvider } from '../models/index.js'
import { ConfigError, UsageError } from '../errors/index.js'
import type { SearchPlan, SearchSettings } from './options.js'
import { toSearchResult, queryTerms } from './rows.js'
import type { ResultRow } from './sql.js'
import type { SearchResponse, SearchResult } from './types.js'

/** What the search functions need: a database, config.search, and for vectors an embedder. */
export interface SearchDeps {
  db: Database
  /** config.search. */
  settings: SearchSettings
  /** Embeds the query for vector and hybrid search; defaults to the provider `embedding` selects. */
  embedder?: EmbeddingProvider
  /** config.embedding; used only when `embedder` is absent. */
  embedding?: EmbeddingConfig
  /** $BRAIN_HOME, where registered local models live; with it the brain's active model is used. */
  home?: string
  /** Clock for the `stale` flag. */
  now?: () => Date
  signal?: AbortSignal
}

/** What searching a brain of this configuration needs: its search settings and embedding provider. */
export function searchDeps(db: Database, config: { search: SearchSettings; embedding: EmbeddingConfig; home?: string }, options: { now?: () => Date; signal?: AbortSignal } = {}): SearchDeps {
  return { db, settings: config.search, embedding: config.embedding, home: config.home, ...options }
}

export async function resolveEmbedder(deps: SearchDeps): Promise<EmbeddingProvider> {
  if (deps.embedder) return deps.embedder
  if (deps.embedding && deps.home !== undefined) return activeEmbeddingProvider(deps.db, { home: deps.home, embedding: deps.embedding })
  if (deps.embedding) return embeddingProviderFor(deps.embedding)
  throw new ConfigError('search_no_embedder', 'Vector search needs an embedding provider and none was given.', {
    hint: 'Pass the configuration (config.embedding) or an embedder in the search context.',
  })
}

export function requireQuery(text: string, command: 'search' | 'query'): string {
  const trimmed = typeof text === 'string' ? text.trim() : ''
  if (trimmed === '') {
    const what = command === 'search' ? 'query' : 'question'
    throw new UsageError(`${command}_requires_${what}`, `${command} needs a ${what}.`, { hint: `brain ${command} "<${what}>"` })
  }
  return trimmed
}

export function mapRows(rows: readonly ResultRow[], query: string, plan: SearchPlan, deps: SearchDeps): SearchResult[] {
  const rowOptions = { terms: queryTerms(query), snippetChars: plan.snippetChars, now: (deps.now ?? (() => new Date()))() }
  return rows.map((row) => toSearchResult(row, rowOptions))
}

export function baseResponse(query: string, mode: SearchResponse['mode'], plan: SearchPlan): SearchResponse {
  return {
    query,
    mode,
    ran: [],
    keyword_only: null,
    notice: null,
    match: null,
    model: null,
    detail: plan.detail,
    limit: plan.limit,
    offset: plan.offset,
    results: [],
  }
}

export function noEmbeddingsNotice(model: string): string {
  return `No chunk has an embedding from ${model} yet. Run \`brain embed --stale\` (or \`brain embed --all\` after changing the embedding provider).`
}
