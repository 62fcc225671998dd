/**
 * One level of the callers walk as one query that returns only what the walk keeps: the edges
 * into the frontier, filtered by receiver (`targetMatches`), less the visited callers, each
 * caller once (at the first frontier item that reaches it), in walk order, up to what the limit
 * leaves. Only those rows are located (file, lines, symbol), so a level that fans out to
 * thousands of edges ships a handful of rows.
 */
import type { SqlExecutor } from '../db/index.js'
import { LOCATION_COLUMNS, type LocationRow } from './navigation.js'
import { splitSymbol } from './query-args.js'

/** A node the walk expands next. */
export interface FrontierItem {
  chunkId: number | null
  name: string | null
  qualified: string | null
  /** File stem and folder of the definition: `open` and `db` for src/db/open.ts. */
  fileStem: string | null
  dirName: string | null
  /** A symbol with no definition in the brain: a call on any receiver may mean it. */
  anyReceiver?: boolean
  path: string[]
}

interface CallerRow extends LocationRow {
  /** Index of the frontier item reached. */
  i: number
  edge_type: string
  via: 'chunk' | 'symbol'
  target: string | null
  from_symbol: string | null
}

/**
 * `${chunkId}<US>${fromSymbol ?? ''}`: a caller, as the visited set knows it and as the level
 * query spells it from an edge row (chr(31), which no name holds).
 */
export function callerKey(chunkId: number | null, fromSymbol: string | null): string {
  return `${chunkId}\u001f${fromSymbol ?? ''}`
}

interface LevelParams {
  chunk: { i: number[]; chunk: string[]; qual: Array<string | null> }
  name: { i: number[]; name: string[]; qual: Array<string | null>; owner: Array<string | null>; stem: Array<string | null>; dir: Array<string | null>; any: boolean[] }
}

/**
 * Items alike for `targetMatches` (copies of one definition in files of the same name) have the
 * same by-name callers, and the first of them claims every one: only the first looks them up.
 */
function levelParams(frontier: readonly FrontierItem[]): LevelParams {
  const seen = new Set<string>()
  const p: LevelParams = {
    chunk: { i: [], chunk: [], qual: [] },
    name: { i: [], name: [], qual: [], owner: [], stem: [], dir: [], any: [] },
  }
  frontier.forEach((f, i) => {
    if (f.chunkId !== null) {
      p.chunk.i.push(i)
      p.chunk.chunk.push(String(f.chunkId))
      p.chunk.qual.push(f.qualified)
    }
    const key = JSON.stringify([f.name, f.qualified, f.fileStem, f.dirName, f.anyReceiver === true])
    if (f.name === null || seen.has(key)) return
    seen.add(key)
    p.name.i.push(i)
    p.name.name.push(f.name)
    p.name.qual.push(f.qualified)
    p.name.owner.push(f.qualified === null ? null : splitSymbol(f.qualified).qualifier)
    p.name.stem.push(f.fileStem)
    p.name.dir.push(f.dirName)
    p.name.any.push(f.anyReceiver === true)
  })
  return p
}

/**
 * The located columns, with the calling definition's own lines and type where it has one. The
 * body comes along for the snippet: these rows are the results, so reading it here spares a
 * statement afterwards.
 */
const CALLER_COLUMNS = LOCATION_COLUMNS.replace(
  'c.symbol_type, c.symbol_name, c.symbol_name_qualified, c.start_line, c.end_line',
  `coalesce(cs.symbol_type, c.symbol_type) AS symbol_type, coalesce(cs.name, c.symbol_name) AS symbol_name,
   coalesce(cs.qualified, c.symbol_name_qualified) AS symbol_name_qualified,
   coalesce(cs.start_line, c.start_line) AS start_line, coalesce(cs.end_line, c.end_line) AS end_line`,
)

/**
 * The by-name receiver rule of `targetMatches` in SQL, over `s.to_symbol_qualified` and the
 * frontier item `f`: `q` is the target's qualifier (text before its last dot), null for a bare name.
 */
const RECEIVER_MATCHES = `(t.q IS NULL OR f.any_receiver OR s.to_symbol_qualified = f.qual
  OR CASE WHEN f.owner IS NOT NULL THEN t.q = f.owner OR t.q ~ '^[a-z_]' ELSE t.q = f.stem OR t.q = f.dir END)`

/**
 * Up to `take` new callers of the frontier, in walk order (frontier item, then file, then line).
 * A chunk edge counts when it names no target or the item's own definition; a caller reached
 * both ways keeps its chunk edge.
 */
export async function callerLevel(db: SqlExecutor, frontier: readonly FrontierItem[], visited: ReadonlySet<string>, take: number): Promise<CallerRow[]> {
  const p = levelParams(frontier)
  // Arrays, not a JSON record set: the planner sees how many items there are. Each item's callers
  // are read in answer order through an index and cut at `take`, which is exact: an item
  // contributes only while the items before it hold fewer than `take` callers between them, and
  // then its first `take` callers, less those they claimed, are enough. Visited callers are
  // tested on each row by their key; a join with the set cost a scan of it per candidate.
  const { rows } = await db.query<CallerRow>(
    `WITH hits AS (
       SELECT f.i, e.*
         FROM unnest($1::int[], $2::bigint[], $3::text[]) AS f(i, chunk, qual)
         CROSS JOIN LATERAL (
           SELECT DISTINCT ON (e.from_slug, e.from_line, e.from_chunk_id, e.from_symbol)
                  e.from_chunk_id, e.from_symbol, e.edge_type, 'chunk' AS via, NULL::text AS target, e.from_slug, e.from_line
           FROM code_edges_chunk e
           WHERE e.to_chunk_id = f.chunk AND (e.to_symbol IS NULL OR f.qual IS NULL OR e.to_symbol = f.qual)
             AND e.from_chunk_id::text || chr(31) || coalesce(e.from_symbol, '') <> ALL ($11::text[])
           ORDER BY e.from_slug, e.from_line, e.from_chunk_id, e.from_symbol, e.edge_type
           LIMIT $12) e
       UNION ALL
       SELECT f.i, s.*
         FROM unnest($4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[])
              AS f(i, name, qual, owner, stem, dir, any_receiver)
         CROSS JOIN LATERAL (
           SELECT DISTINCT ON (s.from_slug, s.from_line, s.from_chunk_id, s.from_symbol)
                  s.from_chunk_id, s.from_symbol, s.edge_type, 'symbol' AS via, s.to_symbol_qualified AS target, s.from_slug, s.from_line
           FROM code_edges_symbol s
           CROSS JOIN LATERAL (SELECT substring(s.to_symbol_qualified from '^(.+)\\.[^.]+$') AS q) t
           WHERE s.to_symbol_name = f.name AND ${RECEIVER_MATCHES}
             AND s.from_chunk_id::text || chr(31) || coalesce(s.from_symbol, '') <> ALL ($11::text[])
           ORDER BY s.from_slug, s.from_line, s.from_chunk_id, s.from_symbol, s.edge_type
           LIMIT $12) s),
     fresh AS (
       SELECT DISTINCT ON (h.from_chunk_id, coalesce(h.from_symbol, '')) h.*
       FROM hits h
       ORDER BY h.from_chunk_id, coalesce(h.from_symbol, ''), h.i, h.via, h.edge_type),
     ranked AS (
       SELECT * FROM fresh ORDER BY i, from_slug, from_line, from_chunk_id, from_symbol LIMIT $12)
     SELECT r.i, r.edge_type, r.via, r.target, r.from_symbol, ${CALLER_COLUMNS}
     FROM ranked r JOIN content_chunks c ON c.id = r.from_chunk_id JOIN pages p ON p.id = c.page_id
     LEFT JOIN LATERAL (SELECT cs.* FROM code_symbols cs
                        WHERE cs.chunk_id = r.from_chunk_id AND cs.qualified = r.from_symbol AND cs.start_line = r.from_line
                        LIMIT 1) cs ON true
     ORDER BY r.i, r.from_slug, r.from_line, r.from_chunk_id, r.from_symbol`,
    [p.chunk.i, p.chunk.chunk, p.chunk.qual, p.name.i, p.name.name, p.name.qual, p.name.owner, p.name.stem, p.name.dir, p.name.any, [...visited], take],
  )
  return rows
}
