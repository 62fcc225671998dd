/**
 * Re-ranking (`rerank`): a local cross-encoder reads the question with each of the first
 * `search.rerank_top` (30) results' chunks and orders them by its relevance score (shown as a
 * 0–1 sigmoid); the results past that window keep their order after them. When scoring takes
 * longer than `search.rerank_budget_ms` (2000) or the model fails, the un-reranked order is
 * returned and `notice` says so.
 */
import { rerankSettings, scoreChunks } from '../models/index.js'
import type { SearchDeps } from './deps.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from './options.js'
import type { SearchOptions, SearchResponse } from './types.js'

/** Runs `run` for a window wide enough to re-rank, re-ranks it, then cuts the window asked for. */
export async function searchWithRerank(deps: SearchDeps, question: string, options: SearchOptions, run: (options: SearchOptions) => Promise<SearchResponse>): Promise<SearchResponse> {
  const inner: SearchOptions = { ...options, rerank: false }
  if (deps.home === undefined) return run(inner)
  const settings = await rerankSettings(deps.db, deps.home, options.rerank)
  if (settings === null) return run(inner)
  const limit = options.limit ?? DEFAULT_LIMIT
  const offset = options.offset ?? 0
  const wide = await run({ ...inner, offset: 0, limit: Math.min(MAX_LIMIT, Math.max(settings.top, offset + limit)) })
  const head = wide.results.slice(0, settings.top)
  const outcome = await scoreChunks(
    deps.db,
    settings,
    question,
    head.map((r) => r.chunk_id),
  )
  if (outcome.kind !== 'scored') {
    const why = outcome.kind === 'over_budget' ? `took longer than ${settings.budgetMs} ms` : `failed (${outcome.message})`
    const notice = [wide.notice, `Not re-ranked: ${settings.manifest.id} ${why}; results are in ${wide.ran.includes('vector') ? 'hybrid' : 'keyword'} order.`].filter(Boolean).join(' ')
    return { ...wide, limit, offset, notice, results: wide.results.slice(offset, offset + limit) }
  }
  const scored = head.map((result, index) => ({ result: { ...result, score: 1 / (1 + Math.exp(-outcome.scores[index]!)) }, raw: outcome.scores[index]!, index }))
  scored.sort((a, b) => b.raw - a.raw || a.index - b.index)
  const results = [...scored.map((s) => s.result), ...wide.results.slice(settings.top)]
  return { ...wide, limit, offset, reranker: settings.manifest.id, results: results.slice(offset, offset + limit) }
}
