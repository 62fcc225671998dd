/**
 * One walk over the brain's graph: note links (wikilinks, embeds, property links, mentions), code
 * citations (documents / documented_by) and the code call graph between code pages (`calls`),
 * breadth first from one page, one query per level. Each page is reached once (the cycle guard),
 * at its smallest depth, by the first path found; the walk stops at its depth or its cap.
 */
import type { SqlExecutor } from '../db/index.js'
import { NotFoundError } from '../errors/index.js'

export type WalkDirection = 'out' | 'in' | 'both'

export interface GraphWalkOptions {
  slug: string
  sourceId?: string
  /** Hops, 1 to MAX_WALK_DEPTH (default 2). */
  depth?: number
  /** Only edges of these types (`calls` for the call graph); all when absent. */
  types?: readonly string[]
  direction?: WalkDirection
  /** Most pages returned (default 100, at most MAX_WALK_NODES). */
  limit?: number
}

export interface GraphNode {
  slug: string
  sourceId: string
  title: string
  pageKind: string
  depth: number
  /** Slugs from the start page to this one. */
  path: string[]
  /** The type of the edge that reached it, and whether it was followed forwards (out) or backwards (in). */
  via: string
  direction: 'out' | 'in'
}

export interface GraphWalkResult {
  start: { slug: string; sourceId: string; title: string; pageKind: string }
  depth: number
  direction: WalkDirection
  nodes: GraphNode[]
  /** True when the cap stopped the walk before its depth was done. */
  truncated: boolean
}

export const MAX_WALK_DEPTH = 6
export const MAX_WALK_NODES = 5000
const CALLS = 'calls'

interface EdgeRow {
  from_id: string
  to_id: string
  type: string
  dir: 'out' | 'in'
  slug: string
  source_id: string
  title: string
  page_kind: string
}

/**
 * The pages a frontier reaches that the walk has not seen, each once, by the first edge in walk
 * order (the smallest from page, outgoing before incoming, then type), at most $7 of them: a hub
 * with thousands of backlinks costs a sort in the database, not thousands of rows sent back. A
 * call edge joins two code pages when a call on one names a definition found on exactly one
 * other page (a name defined on several pages is ambiguous and left out, as code-callers reports
 * it).
 */
const LEVEL = `
  WITH f AS (SELECT unnest($1::bigint[]) AS id),
  e AS (
    SELECT l.from_page_id AS from_id, l.to_page_id AS to_id, l.link_type AS type, 'out' AS dir
      FROM links l JOIN f ON l.from_page_id = f.id
     WHERE $2::boolean AND l.to_page_id IS NOT NULL AND ($4::text[] IS NULL OR l.link_type = ANY($4::text[]))
    UNION ALL
    SELECT l.to_page_id, l.from_page_id, l.link_type, 'in'
      FROM links l JOIN f ON l.to_page_id = f.id
     WHERE $3::boolean AND ($4::text[] IS NULL OR l.link_type = ANY($4::text[]))
    UNION ALL
    SELECT DISTINCT c.page_id, t.page_id, '${CALLS}', 'out'
      FROM f JOIN content_chunks c ON c.page_id = f.id JOIN code_edges_symbol s ON s.from_chunk_id = c.id
      CROSS JOIN LATERAL (SELECT min(cs.page_id) AS page_id FROM code_symbols cs WHERE cs.name = s.to_symbol_name
                          HAVING count(DISTINCT cs.page_id) = 1) t
     WHERE $2::boolean AND $5::boolean AND t.page_id <> c.page_id
    UNION ALL
    SELECT DISTINCT cs.page_id, c.page_id, '${CALLS}', 'in'
      FROM f JOIN code_symbols cs ON cs.page_id = f.id
      JOIN code_edges_symbol s ON s.to_symbol_name = cs.name JOIN content_chunks c ON c.id = s.from_chunk_id
     WHERE $3::boolean AND $5::boolean AND c.page_id <> cs.page_id
       AND NOT EXISTS (SELECT 1 FROM code_symbols o WHERE o.name = cs.name AND o.page_id <> cs.page_id))
  , reached AS (
    SELECT DISTINCT ON (e.to_id) e.from_id, e.to_id, e.type, e.dir
      FROM e
     WHERE NOT (e.to_id = ANY($6::bigint[]))
     ORDER BY e.to_id, e.from_id, e.dir DESC, e.type)
  SELECT r.from_id, r.to_id, r.type, r.dir, p.slug, p.source_id, p.title, p.page_kind
    FROM reached r JOIN pages p ON p.id = r.to_id
   ORDER BY r.from_id, r.dir DESC, r.type, p.slug, p.source_id
   LIMIT $7`

async function startPage(db: SqlExecutor, slug: string, sourceId: string | undefined): Promise<{ id: string; slug: string; source_id: string; title: string; page_kind: string }> {
  const { rows } = await db.query<{ id: string; slug: string; source_id: string; title: string; page_kind: string }>(
    `SELECT id, slug, source_id, title, page_kind FROM pages WHERE slug = $1 AND ($2::text IS NULL OR source_id = $2)
     ORDER BY (source_id = 'default') DESC, source_id LIMIT 1`,
    [slug, sourceId ?? null],
  )
  if (!rows[0]) throw new NotFoundError('page_not_found', `No page ${slug}${sourceId ? ` in source ${sourceId}` : ''}.`, { hint: 'List pages with `brain list`.' })
  return rows[0]
}

export async function graphWalk(db: SqlExecutor, options: GraphWalkOptions): Promise<GraphWalkResult> {
  const depth = Math.min(Math.max(options.depth ?? 2, 1), MAX_WALK_DEPTH)
  const limit = Math.min(Math.max(options.limit ?? 100, 1), MAX_WALK_NODES)
  const direction = options.direction ?? 'both'
  const types = options.types && options.types.length > 0 ? [...options.types] : null
  const start = await startPage(db, options.slug, options.sourceId)
  const paths = new Map<string, string[]>([[String(start.id), [start.slug]]])
  const nodes: GraphNode[] = []
  let frontier = [String(start.id)]
  let truncated = false
  for (let level = 1; level <= depth && frontier.length > 0 && !truncated; level++) {
    // One row more than the cap leaves room for tells the walk that it was cut short.
    const room = limit - nodes.length + 1
    const { rows } = await db.query<EdgeRow>(LEVEL, [frontier, direction !== 'in', direction !== 'out', types, types === null || types.includes(CALLS), [...paths.keys()], room])
    const next: string[] = []
    for (const row of rows) {
      const to = String(row.to_id)
      if (paths.has(to)) continue
      if (nodes.length >= limit) {
        truncated = true
        break
      }
      const path = [...paths.get(String(row.from_id))!, row.slug]
      paths.set(to, path)
      next.push(to)
      nodes.push({ slug: row.slug, sourceId: row.source_id, title: row.title, pageKind: row.page_kind, depth: level, path, via: row.type, direction: row.dir })
    }
    frontier = next
  }
  return {
    start: { slug: start.slug, sourceId: start.source_id, title: start.title, pageKind: start.page_kind },
    depth,
    direction,
    nodes,
    truncated,
  }
}
