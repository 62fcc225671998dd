/**
 * code-refs: every code chunk whose body (the text after its header line) contains the symbol,
 * case-insensitive, by slug then line (then chunk id, so ties have one order).
 *
 * Two plans give the same rows in the same order; which one runs only changes the cost:
 *
 * - **Trigram.** The trigram index (migration 0190) finds the candidates; every match is
 *   rechecked, ranked on slug and line, and the first `limit` are read in full. Its cost grows
 *   with the number of matches: fine for a rare symbol, tens of milliseconds for one found in
 *   thousands of chunks.
 * - **Walk.** Code chunks in answer order (code pages by slug through their own index,
 *   migration 0210; each page's chunks by line), each tested, stopping at the `limit`-th match:
 *   its cost is the number of chunks before that match, not the number of matches. The walk is
 *   capped; one that reaches its cap without filling the limit gives way to the trigram plan.
 *
 * The choice needs the number of matches, estimated before either runs. The keyword-search
 * statistics (migration 0170) count the chunks holding each lexeme exactly, so a symbol that is
 * a word (`UsageError`, `search`) costs one index lookup to estimate: the fewest chunks among its
 * lexemes. A symbol with no lexeme (`(`, `%_`) is estimated by a probe: up to `probeRows + 1`
 * matches read through the trigram index in physical order; fewer means it saw every match and
 * already holds the answer, more gives the density of matches in the blocks it read.
 *
 * With M matches among N chunks spread evenly, the walk meets the `limit`-th after about
 * limit × N / M chunks, and a walk step costs about half a recheck: the walk runs when half
 * that is under M, capped at four times the expectation and at 2M.
 */
import type { SqlExecutor } from '../db/types.js'
import { LOCATION_COLUMNS, snippetAround, toLocation, type CodeDefQuery, type CodeReference, type LocationRow } from './navigation.js'
import { canonicalLanguage, requireSymbol, resolveLimit } from './query-args.js'

/** Matches the probe reads before it calls a symbol common (at least the limit). */
export const REFS_PROBE_ROWS = 50
/** The walk's cap, as a multiple of the chunks it is expected to read. */
const WALK_CAP_FACTOR = 4
/**
 * What a walk step costs against a recheck of a match: a chunk the walk passes over is tested
 * on its whole text first, without cutting the header off (measured at about half the cost).
 */
const WALK_STEP_COST = 0.5
/** Chunks per heap block when the table has no statistics yet. */
const DEFAULT_ROWS_PER_BLOCK = 8

export interface RefsOptions {
  /** Overrides REFS_PROBE_ROWS (tests use a small probe on a small brain). */
  probeRows?: number
}

/** How many chunks match, estimated; null when the symbol has no lexeme to count. */
export interface MatchEstimate {
  matches: number
  chunks: number
}

/**
 * The fewest chunks holding any one lexeme of the symbol (none when a lexeme is unknown), from
 * the keyword statistics; null when the symbol has no lexeme (punctuation, stop words).
 */
export async function lexemeEstimate(db: SqlExecutor, symbol: string): Promise<MatchEstimate | null> {
  const { rows } = await db.query<{ lexemes: number; matches: number; chunks: number | null }>(
    `SELECT coalesce(cardinality(l.lexemes), 0) AS lexemes,
       (SELECT CASE WHEN count(*) = cardinality(l.lexemes) THEN min(s.chunk_count) ELSE 0 END
        FROM search_lexeme_stats s WHERE s.lexeme = ANY (l.lexemes))::float8 AS matches,
       (SELECT chunk_count FROM search_corpus_stats WHERE id = 1)::float8 AS chunks
     FROM (SELECT tsvector_to_array(to_tsvector('english', $1)) AS lexemes) l`,
    [symbol],
  )
  const row = rows[0]
  if (row === undefined || Number(row.lexemes) === 0) return null
  return { matches: Number(row.matches), chunks: Number(row.chunks ?? 0) }
}

/** The walk's cap in chunks, or null when rechecking every match is expected to cost less. */
export function walkCapFor({ matches, chunks }: MatchEstimate, limit: number): number | null {
  if (matches <= 0) return null
  const expected = (limit * chunks) / matches
  if (expected * WALK_STEP_COST >= matches) return null
  return Math.max(limit, Math.ceil(Math.min(matches / WALK_STEP_COST, WALK_CAP_FACTOR * expected)))
}

/** The match test of the probe and the trigram plan: the form the trigram index answers. */
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

/** The probe: up to `probeRows + 1` matches in physical order, the first `limit` of them located. */
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
  return { rows, complete, walkCap: complete ? null : walkCapFor(probeEstimate(first!), limit) }
}

/** The probe's estimate: `found` matches in the first `scanned_blocks` of `blocks`. */
export function probeEstimate(probe: Pick<ProbeRow, 'found' | 'scanned_blocks' | 'blocks' | 'rows_per_block'>): MatchEstimate {
  const blocks = Math.max(Number(probe.blocks), Number(probe.scanned_blocks), 1)
  const rowsPerBlock = probe.rows_per_block === null ? DEFAULT_ROWS_PER_BLOCK : Number(probe.rows_per_block)
  return { matches: (Number(probe.found) * blocks) / Math.max(Number(probe.scanned_blocks), 1), chunks: blocks * rowsPerBlock }
}

/**
 * The walk: code chunks in answer order, each tested, up to `cap` chunks; the first `limit`
 * matches, or null when the cap came first (the answer may lie further on).
 * `strpos(lower(…), lower(…))` is the test ILIKE makes on a literal (ILIKE lowers both sides and
 * matches), spelled so the planner cannot swap the ordered walk for the trigram index. The whole
 * text is tested first: lowering is per character, so a body that matches is inside a text that
 * matches, and most chunks walked past are settled without cutting their header off.
 */
export async function walkRefs(db: SqlExecutor, symbol: string, language: string | null, limit: number, cap: number): Promise<LocationRow[] | null> {
  const { rows } = await db.query<LocationRow>(
    `WITH walk AS (
       SELECT c.id, p.slug, c.start_line, c.chunk_index,
              CASE WHEN strpos(lower(c.chunk_text), lower($1)) > 0
                   THEN strpos(lower(substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1)), lower($1)) > 0
                   ELSE false END AS hit
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

/** The trigram plan: every match rechecked and ranked on its sort keys; only the first `limit` read in full. */
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
  let rows: LocationRow[] | null = null
  let cap: number | null
  const estimate = await lexemeEstimate(db, raw)
  if (estimate === null) {
    const probe = await probeRefs(db, raw, language, limit, Math.max(options.probeRows ?? REFS_PROBE_ROWS, limit))
    if (probe.complete) rows = probe.rows
    cap = probe.walkCap
  } else {
    cap = walkCapFor(estimate, limit)
  }
  if (rows === null && cap !== null) rows = await walkRefs(db, raw, language, limit, cap)
  rows ??= await trigramRefs(db, raw, language, limit)
  return rows.map((row) => ({ ...toLocation(row, snippetAround(row.body, raw)), symbolName: row.symbol_name }))
}
