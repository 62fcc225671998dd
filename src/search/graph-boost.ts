/**
 * Graph-aware ranking (`graph_boost`): results that the brain's links tie to each other, and
 * pages many notes point at, rank higher. Applied to ranked results after the search ran, like
 * the nearSymbol boost, so keyword and hybrid search share it and keep their own ranking code.
 *
 *   score' = score × (1 + GRAPH_LINK_WEIGHT × min(1, linked / GRAPH_LINK_SATURATION)
 *                       + GRAPH_INDEGREE_WEIGHT × ln(1 + in) / ln(1 + maxIn))
 *
 * `linked` counts the other results of the window this page links to or is linked from (any link
 * kind with a resolved target: wikilinks, markdown links, embeds, property links, mentions,
 * citations); `in` is the page's number of inbound links in the whole brain and `maxIn` the
 * largest `in` in the window (the term is 0 when no result has inbound links). The search first
 * fetches a wider window (three times offset + limit, at least 30, at most 100).
 */
import type { SqlExecutor } from '../db/index.js'
import type { SearchDeps } from './deps.js'
import { DEFAULT_LIMIT, MAX_LIMIT } from './options.js'
import type { SearchOptions, SearchResponse, SearchResult } from './types.js'

export const GRAPH_LINK_WEIGHT = 0.3
const GRAPH_LINK_SATURATION = 3
export const GRAPH_INDEGREE_WEIGHT = 0.1

interface LinkEvidence {
  linked: number
  inbound: number
}

const EVIDENCE_SQL = `
WITH r AS (
  SELECT p.id, x.ord::integer AS ord
  FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(source_id, slug, ord)
  JOIN pages p ON p.source_id = x.source_id AND p.slug = x.slug
)
SELECT r.ord,
  (SELECT count(DISTINCT o.id) FROM links l JOIN r o ON o.id <> r.id AND (o.id = l.from_page_id OR o.id = l.to_page_id)
    WHERE (l.from_page_id = r.id OR l.to_page_id = r.id) AND l.to_page_id IS NOT NULL AND l.from_page_id <> l.to_page_id)::integer AS linked,
  (SELECT count(*) FROM links l WHERE l.to_page_id = r.id AND l.from_page_id <> r.id)::integer AS inbound
FROM r`

/** Link evidence of each result, by its position in the list. */
async function linkEvidence(db: SqlExecutor, results: readonly SearchResult[]): Promise<Map<number, LinkEvidence>> {
  if (results.length === 0) return new Map()
  const { rows } = await db.query<{ ord: number; linked: number; inbound: number }>(EVIDENCE_SQL, [results.map((r) => r.source_id), results.map((r) => r.slug)])
  return new Map(rows.map((row) => [Number(row.ord) - 1, { linked: Number(row.linked), inbound: Number(row.inbound) }]))
}

/** The formula above over one window; results keep their order on equal scores. */
export function boostByLinks(results: readonly SearchResult[], evidence: ReadonlyMap<number, LinkEvidence>): SearchResult[] {
  const maxIn = Math.max(0, ...[...evidence.values()].map((e) => e.inbound))
  const boosted = results.map((result, index) => {
    const e = evidence.get(index)
    if (!e) return { result, index }
    const linkTerm = GRAPH_LINK_WEIGHT * Math.min(1, e.linked / GRAPH_LINK_SATURATION)
    const inTerm = maxIn > 0 ? (GRAPH_INDEGREE_WEIGHT * Math.log1p(e.inbound)) / Math.log1p(maxIn) : 0
    return { result: { ...result, score: result.score * (1 + linkTerm + inTerm) }, index }
  })
  boosted.sort((a, b) => b.result.score - a.result.score || a.index - b.index)
  return boosted.map((b) => b.result)
}

/** Runs a search with the graph boost: a wider window, the boost, then the window asked for. */
export async function searchWithGraphBoost(deps: SearchDeps, options: SearchOptions, run: (options: SearchOptions) => Promise<SearchResponse>): Promise<SearchResponse> {
  const inner: SearchOptions = { ...options, graphBoost: false }
  const limit = options.limit ?? DEFAULT_LIMIT
  const offset = options.offset ?? 0
  const wide = await run({ ...inner, offset: 0, limit: Math.min(MAX_LIMIT, Math.max(30, 3 * (offset + limit))) })
  const results = boostByLinks(wide.results, await linkEvidence(deps.db, wide.results)).slice(offset, offset + limit)
  return { ...wide, limit, offset, results }
}
