/**
 * The `nearSymbol` boost: results whose page lies within `walkDepth` call-graph hops of the
 * symbol's definition rank higher. Applied to ranked results after the search ran, so it works
 * the same for keyword and hybrid search and leaves their ranking code alone.
 *
 *   score' = score × (1 + NEAR_SYMBOL_WEIGHT / (1 + hops))
 *
 * hops is 0 for a page defining the symbol, 1 for a page holding a direct caller or callee, and
 * so on up to walkDepth; other pages keep their score. The search first fetches a wider window
 * (three times offset + limit, at least 30, at most 100) so a boosted page from further down can
 * move up into the window asked for.
 */
import { getCalleesOf, getCallersOf } from '../code/graph.js'
import type { SqlExecutor } from '../db/index.js'
import { UsageError } from '../errors/index.js'
import type { SearchDeps } from './deps.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from './options.js'
import type { SearchOptions, SearchResponse, SearchResult } from './types.js'

const NEAR_SYMBOL_WEIGHT = 1
const DEFAULT_WALK_DEPTH = 1
export const MAX_WALK_DEPTH = 3
/** Call-graph nodes read per direction when building the neighbourhood. */
const NEIGHBOURHOOD_CAP = 500

const pageKey = (sourceId: string, slug: string): string => `${sourceId}\u0000${slug}`

function resolveWalkDepth(raw: number | undefined): number {
  if (raw === undefined) return DEFAULT_WALK_DEPTH
  if (!Number.isInteger(raw) || raw < 0 || raw > MAX_WALK_DEPTH) {
    throw new UsageError('invalid_walk_depth', `walkDepth must be a whole number from 0 to ${MAX_WALK_DEPTH}, not ${String(raw)}.`)
  }
  return raw
}

/** Pages within `walkDepth` hops of the symbol's definitions, with their distance in hops. */
async function symbolNeighbourhood(db: SqlExecutor, symbol: string, walkDepth: number): Promise<Map<string, number>> {
  const hops = new Map<string, number>()
  const note = (sourceId: string | null, slug: string | null, d: number): void => {
    if (sourceId === null || slug === null) return
    const key = pageKey(sourceId, slug)
    if (!hops.has(key) || hops.get(key)! > d) hops.set(key, d)
  }
  const depth = Math.max(1, walkDepth)
  const [callers, callees] = await Promise.all([getCallersOf(db, { symbol, depth, limit: NEIGHBOURHOOD_CAP }), getCalleesOf(db, { symbol, depth, limit: NEIGHBOURHOOD_CAP })])
  for (const def of callers.definitions) note(def.sourceId, def.slug, 0)
  if (walkDepth > 0) for (const node of [...callers.results, ...callees.results]) note(node.sourceId, node.slug, node.depth)
  return hops
}

/** Multiplies the score of results in the neighbourhood and re-sorts (ties keep their order). */
function boostNearSymbol(results: readonly SearchResult[], hops: ReadonlyMap<string, number>): SearchResult[] {
  const boosted = results.map((r, index) => {
    const d = hops.get(pageKey(r.source_id, r.slug))
    return { result: d === undefined ? r : { ...r, score: r.score * (1 + NEAR_SYMBOL_WEIGHT / (1 + d)) }, index }
  })
  boosted.sort((a, b) => b.result.score - a.result.score || a.index - b.index)
  return boosted.map((b) => b.result)
}

/** Runs a search with the nearSymbol boost: a wider window, the boost, then the window asked for. */
export async function searchNearSymbol(deps: SearchDeps, options: SearchOptions, run: (options: SearchOptions) => Promise<SearchResponse>): Promise<SearchResponse> {
  const symbol = options.nearSymbol?.trim() ?? ''
  const { nearSymbol: _n, walkDepth: _w, ...rest } = options
  if (symbol === '') return run(rest)
  const walkDepth = resolveWalkDepth(options.walkDepth)
  const limit = options.limit ?? DEFAULT_LIMIT
  const offset = options.offset ?? 0
  const wide = await run({ ...rest, offset: 0, limit: Math.min(MAX_LIMIT, Math.max(30, 3 * (offset + limit))) })
  const hops = await symbolNeighbourhood(deps.db, symbol, walkDepth)
  const results = boostNearSymbol(wide.results, hops).slice(offset, offset + limit)
  const missing = hops.size === 0 ? `near_symbol "${symbol}" is not defined in the brain; no boost applied.` : null
  return { ...wide, limit, offset, results, notice: wide.notice ?? missing }
}
