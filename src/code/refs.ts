/**
 * code-refs: every code chunk whose body (the text after its header line) contains the symbol,
 * case-insensitive, by slug then line (then chunk id, so ties have one order).
 *
 * Three plans give the same rows in the same order; which one runs only changes the cost:
 *
 * 1. **Probe.** The trigram index (migration 0190) yields up to `probeRows + 1` matches in the
 *    table's physical order. Fewer than that means every match was seen: the first `limit` of
 *    them are the answer, in one statement (a rare symbol costs what it always did).
 * 2. **Walk.** A common symbol is answered by walking code chunks in answer order (pages by
 *    slug through their index, each page's chunks by line) and testing each one, stopping at
 *    the `limit`-th match: its cost is the number of chunks before that match, not the number
 *    of matches. The walk is capped; a walk that reaches the cap without filling the limit
 *    gives way to plan 3.
 * 3. **Trigram.** Every match is rechecked, ranked on slug and line, and the first `limit`
 *    are read in full. Its cost grows with the number of matches.
 *
 * The probe also says how common the symbol is: it read `found` matches in the first
 * `scannedBlocks` of the table's `blocks`, so there are about found × blocks / scannedBlocks,
 * and (matches spread evenly) the walk meets the `limit`-th after about limit × chunks / matches
 * chunks. A walk step costs about what a recheck does, so the walk runs when that is fewer
 * than the matches, capped at a few times the expectation and never more than the matches.
 */
import type { SqlExecutor } from '../db/types.js'
import { LOCATION_COLUMNS, snippetAround, toLocation, type CodeDefQuery, type CodeReference, type LocationRow } from './navigation.js'
import { canonicalLanguage, requireSymbol, resolveLimit } from './query-args.js'

/** Matches the probe reads before it calls a symbol common (at least the limit). */
export const REFS_PROBE_ROWS = 100
/** The walk's cap, as a multiple of the chunks it is expected to read. */
const WALK_CAP_FACTOR = 4
/** Chunks per heap block when the table has no statistics yet. */
const DEFAULT_ROWS_PER_BLOCK = 8

export interface RefsOptions {
  /** Overrides REFS_PROBE_ROWS (tests use a small probe on a small brain). */
  probeRows?: number
}

/** The match test of plans 1 and 3: the form the trigram index answers. */
const BODY_ILIKE = `substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1) ILIKE $1`
const CODE_CHUNKS = `p.page_kind = 'code' AND c.chunk_source = 'code' AND ($2::text IS NULL OR c.language = $2)`
const ANSWER_ORDER = 'slug, start_line, chunk_index, id'

/** Escapes LIKE wildcards so the symbol is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

interface ProbeRow extends LocationRow {
  found: number
  scanned_blocks: number
  blocks: number
  rows_per_block: number | null
}

export interface RefsProbe {
  /** The first `limit` matches among those the probe read. */
  rows: LocationRow[]
  /** Whether the probe read every match (then `rows` is the answer). */
  complete: boolean
  /** The walk's cap in chunks, or null when rechecking every match is cheaper. */
  walkCap: number | null
}

/** Plan 1: up to `probeRows + 1` matches in physical order, the first `limit` of them located. */
export async function probeRefs(db: SqlExecutor, symbol: string, language: string | null, limit: number, probeRows: number): Promise<RefsProbe> {
  const { rows } = await db.query<ProbeRow>(
    `WITH probe AS (
       SELECT c.id, p.slug, c.start_line, c.chunk_index, (c.ctid::text::point)[0] AS block
       FROM content_chunks c JOIN pages p ON p.id = c.page_id
       WHERE ${CODE_CHUNKS} AND ${BODY_ILIKE}
       LIMIT $3),
     top AS (
       SELECT probe.*, count(*) OVER () AS found, max(block) OVER () + 1 AS scanned_blocks
       FROM probe ORDER BY ${ANSWER_ORDER} LIMIT $4)
     SELECT top.found::int AS found, top.scanned_blocks::int AS scanned_blocks,
       (pg_relation_size('content_chunks') / current_setting('block_size')::int)::int AS blocks,
       (SELECT (reltuples / relpages)::float8 FROM pg_class WHERE oid = 'content_chunks'::regclass AND relpages > 0 AND reltuples > 0) AS rows_per_block,
       ${LOCATION_COLUMNS}
     FROM top JOIN content_chunks c ON c.id = top.id JOIN pages p ON p.id = c.page_id
     ORDER BY top.slug, top.start_line, top.chunk_index, top.id`,
    [`%${likeLiteral(symbol)}%`, language, probeRows + 1, limit],
  )
  const first = rows[0]
  const complete = first === undefined || Number(first.found) <= probeRows
  return { rows, complete, walkCap: complete ? null : walkCap(first!, limit) }
}

/** The walk's cap in chunks from the probe's statistics, or null when the walk should not run. */
export function walkCap(probe: Pick<ProbeRow, 'found' | 'scanned_blocks' | 'blocks' | 'rows_per_block'>, limit: number): number | null {
  const blocks = Math.max(Number(probe.blocks), Number(probe.scanned_blocks), 1)
  const matches = (Number(probe.found) * blocks) / Math.max(Number(probe.scanned_blocks), 1)
  const chunks = blocks * (probe.rows_per_block === null ? DEFAULT_ROWS_PER_BLOCK : Number(probe.rows_per_block))
  const expected = (limit * chunks) / matches
  if (expected >= matches) return null
  return Math.max(limit, Math.ceil(Math.min(matches, WALK_CAP_FACTOR * expected)))
}

/**
 * Plan 2: code chunks in answer order, each tested, up to `cap` chunks; the first `limit`
 * matches, or null when the cap came first (the answer may lie further on).
 * `strpos(lower(…), lower(…))` is the same test as ILIKE on a literal (ILIKE lowers both sides
 * and matches), spelled so the planner cannot swap the ordered walk for the trigram index.
 */
export async function walkRefs(db: SqlExecutor, symbol: string, language: string | null, limit: number, cap: number): Promise<LocationRow[] | null> {
  const { rows } = await db.query<LocationRow>(
    `WITH walk AS (
       SELECT c.id, p.slug, c.start_line, c.chunk_index,
              strpos(lower(substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1)), lower($1)) > 0 AS hit
       FROM pages p JOIN content_chunks c ON c.page_id = p.id
       WHERE ${CODE_CHUNKS}
       ORDER BY p.slug, c.start_line, c.chunk_index, c.id
       LIMIT $3),
     hits AS (SELECT id, slug, start_line, chunk_index FROM walk WHERE hit ORDER BY ${ANSWER_ORDER} LIMIT $4)
     SELECT ${LOCATION_COLUMNS}
     FROM hits JOIN content_chunks c ON c.id = hits.id JOIN pages p ON p.id = c.page_id
     ORDER BY hits.slug, hits.start_line, hits.chunk_index, hits.id`,
    [symbol, language, cap, limit],
  )
  return rows.length === limit ? rows : null
}

/** Plan 3: every match rechecked and ranked on its sort keys; only the first `limit` read in full. */
export async function trigramRefs(db: SqlExecutor, symbol: string, language: string | null, limit: number): Promise<LocationRow[]> {
  const { rows } = await db.query<LocationRow>(
    `WITH hits AS (
       SELECT c.id, p.slug, c.start_line, c.chunk_index
       FROM content_chunks c JOIN pages p ON p.id = c.page_id
       WHERE ${CODE_CHUNKS} AND ${BODY_ILIKE}
       ORDER BY p.slug, c.start_line, c.chunk_index, c.id
       LIMIT $3)
     SELECT ${LOCATION_COLUMNS}
     FROM hits JOIN content_chunks c ON c.id = hits.id JOIN pages p ON p.id = c.page_id
     ORDER BY hits.slug, hits.start_line, hits.chunk_index, hits.id`,
    [`%${likeLiteral(symbol)}%`, language, limit],
  )
  return rows
}

/** Every code chunk whose body contains the symbol (case-insensitive), by slug then line. */
export async function codeRefs(db: SqlExecutor, query: CodeDefQuery, options: RefsOptions = {}): Promise<CodeReference[]> {
  const raw = typeof query.symbol === 'string' ? query.symbol.trim() : ''
  requireSymbol('code_refs', raw)
  const limit = resolveLimit('code_refs', query.limit)
  const language = canonicalLanguage(query.language)
  const probe = await probeRefs(db, raw, language, limit, Math.max(options.probeRows ?? REFS_PROBE_ROWS, limit))
  let rows = probe.complete ? probe.rows : null
  if (rows === null && probe.walkCap !== null) rows = await walkRefs(db, raw, language, limit, probe.walkCap)
  rows ??= await trigramRefs(db, raw, language, limit)
  return rows.map((row) => ({ ...toLocation(row, snippetAround(row.body, raw)), symbolName: row.symbol_name }))
}
