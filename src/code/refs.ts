/**
 * code-refs: every code chunk whose body (the text after its header line) contains the symbol,
 * case-insensitive, by slug then line (then chunk id, so ties have one order).
 *
 * Three plans give the same rows in the same order; which one runs only changes the cost.
 *
 * - **Words** (an identifier: `[A-Za-z0-9_]`, at least 3 characters, the bench's every symbol).
 *   Its lowered form `s` holds word characters only, so it can only occur inside one maximal run
 *   of `[0-9a-z_]` of the lowered body: a body matches exactly when one of its words contains `s`.
 *   Migration 0250 keeps each code chunk's distinct words, computed by the database's lower()
 *   (the one ILIKE applies), in a narrow row beside the answer's sort keys. One statement:
 *   walk those rows in answer order testing `strpos(words, s)`, at most √(limit × rows) of them,
 *   and stop at the `limit`-th match; if the walk comes short, expand `s` through the vocabulary
 *   (a trigram index over every word seen) and read the rows holding any of those words through
 *   GIN, ranked on their sort keys. A symbol in M of N chunks is met by the walk after about
 *   limit × N / M rows, so it fills the limit within the cap when M ≳ √(limit × N), and otherwise
 *   the index reads fewer than that many matches: either way about √(limit × N) rows (1,000 at
 *   50,000 chunks; on PGLite a walk row costs about 0.5 µs, an index match with its sort about
 *   1 µs). Dense needles (`const`, `page`) end in the walk within a few dozen rows.
 *   Beyond 200 vocabulary words (a short common fragment) the plan gives way to the two below.
 * - **Trigram.** The trigram index (migration 0190) finds the candidates; every match is
 *   rechecked, ranked on slug and line, and the first `limit` are read in full. Its cost grows
 *   with the number of matches: fine for a rare symbol, tens of milliseconds for one found in
 *   thousands of chunks.
 * - **Walk.** Code chunks in answer order (code pages by slug through their own index,
 *   migration 0210; each page's chunks by line), each tested, stopping at the `limit`-th match:
 *   its cost is the number of chunks before that match, not the number of matches. The walk is
 *   capped; one that reaches its cap without filling the limit gives way to the trigram plan.
 *
 * Symbols the word plan cannot answer (punctuation, under three characters, non-ASCII) choose
 * between the last two on the number of matches, estimated before either runs. The keyword-search
 * statistics (migration 0170) count the chunks holding each lexeme exactly, so a symbol that is
 * a word costs one index lookup to estimate: the fewest chunks among its lexemes. A symbol with no
 * lexeme (`(`, `%_`) is estimated by a probe: up to `probeRows + 1` matches read through the
 * trigram index in physical order; fewer means it saw every match and already holds the answer,
 * more gives the density of matches in the blocks it read.
 *
 * With M matches among N chunks spread evenly, the walk meets the `limit`-th after about
 * limit × N / M chunks, and a walk step costs about half a recheck: the walk runs when half
 * that is under M, capped at four times the expectation and at 2M.
 */
import type { SqlExecutor } from '../db/index.js'
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
interface MatchEstimate {
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
     FROM (SELECT tsvector_to_array(to_tsvector(brain_search_language(), $1)) AS lexemes) l`,
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

interface RefsProbe {
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

/** A symbol the word plan answers: identifier characters only, long enough to have a trigram. */
const WORD_SYMBOL = /^[A-Za-z0-9_]{3,}$/
/** The most vocabulary words a symbol may expand to before the word plan gives way. */
const WORD_EXPANSION_CAP = 200
/** Word rows per heap page of a table not yet analyzed (a row is about 300 bytes). */
const DEFAULT_WORD_ROWS_PER_PAGE = 25

export interface WordPlanOptions {
  /** Overrides WORD_EXPANSION_CAP. */
  expansionCap?: number
  /** Overrides the walk's cap of √(limit × rows). */
  walkCap?: number
}

interface WordRow extends LocationRow {
  fallback: boolean
  chunk_index: number | null
}

/**
 * Rows of code_chunk_words now: its pages now times its rows per page at the last ANALYZE (the
 * planner's own estimate, which stays right while the table grows between ANALYZEs).
 */
const WORD_ROWS = `(SELECT (pg_relation_size(c.oid) / current_setting('block_size')::int)
    * CASE WHEN c.relpages > 0 AND c.reltuples > 0 THEN c.reltuples / c.relpages ELSE ${DEFAULT_WORD_ROWS_PER_PAGE} END
  FROM pg_class c WHERE c.oid = 'code_chunk_words'::regclass)`

/**
 * The word plan (migration 0250), one statement. `s` is the symbol lowered here, by the lower()
 * ILIKE applies.
 * 1. Walk the word rows in answer order testing `strpos(words, s)`, at most √(limit × rows) of
 *    them, stopping at the `limit`-th match: the answer when it fills the limit.
 * 2. Otherwise expand `s` to the vocabulary words containing it (trigram index) and read the rows
 *    holding any of them (GIN), ranked on their sort keys: the answer, every match being known.
 * Null when this plan cannot answer: `s` holds a character outside the word class (a locale whose
 * lower() maps ASCII elsewhere), or the expansion passed `expansionCap` words.
 */
export async function wordRefs(db: SqlExecutor, symbol: string, language: string | null, limit: number, options: WordPlanOptions = {}): Promise<LocationRow[] | null> {
  const { rows } = await db.query<WordRow>(
    `WITH walk AS (
       SELECT w.chunk_id, w.slug, w.start_line, w.chunk_index
       FROM (SELECT k.chunk_id, k.slug, k.start_line, k.chunk_index, k.words
             FROM code_chunk_words k
             WHERE $2::text IS NULL OR k.language = $2
             ORDER BY k.slug, k.start_line, k.chunk_index, k.chunk_id
             LIMIT coalesce($5::bigint, ceil(sqrt($3 * ${WORD_ROWS}))::bigint)) w
       WHERE strpos(w.words, lower($1::text)) > 0
       LIMIT $3),
     walked AS (SELECT count(*) AS n FROM walk),
     expansion AS (
       SELECT e.words, coalesce(cardinality(e.words), 0) AS n
       FROM (SELECT code_words_containing(lower($1::text), $4) AS words) e),
     state AS (
       SELECT lower($1::text) !~ '^[0123456789abcdefghijklmnopqrstuvwxyz_]+$'
              OR ((SELECT n FROM walked) < $3 AND (SELECT n FROM expansion) > $4) AS fallback),
     matched AS MATERIALIZED (
       SELECT k.chunk_id, k.slug, k.start_line, k.chunk_index
       FROM code_chunk_words k
       WHERE (SELECT n FROM walked) < $3 AND NOT (SELECT fallback FROM state)
         AND string_to_array(k.words, ' ') && (SELECT words FROM expansion)
         AND ($2::text IS NULL OR k.language = $2)),
     hits AS (
       SELECT * FROM walk WHERE (SELECT n FROM walked) = $3 AND NOT (SELECT fallback FROM state)
       UNION ALL
       (SELECT * FROM matched ORDER BY slug, start_line, chunk_index, chunk_id LIMIT $3))
     SELECT st.fallback, x.*
     FROM state st LEFT JOIN (
       SELECT ${LOCATION_COLUMNS}, c.chunk_index
       FROM hits JOIN content_chunks c ON c.id = hits.chunk_id JOIN pages p ON p.id = c.page_id) x ON true
     ORDER BY x.slug, x.start_line, x.chunk_index, x.chunk_id`,
    [symbol, language, limit, options.expansionCap ?? WORD_EXPANSION_CAP, options.walkCap ?? null],
  )
  if (rows[0]?.fallback !== false) return null
  return rows.filter((row) => row.chunk_id !== null)
}

/** The plans that answer any symbol: the walk or the trigram plan, chosen on the estimated matches. */
async function substringRefs(db: SqlExecutor, symbol: string, language: string | null, limit: number, options: RefsOptions): Promise<LocationRow[]> {
  let cap: number | null
  const estimate = await lexemeEstimate(db, symbol)
  if (estimate === null) {
    const probe = await probeRefs(db, symbol, language, limit, Math.max(options.probeRows ?? REFS_PROBE_ROWS, limit))
    if (probe.complete) return probe.rows
    cap = probe.walkCap
  } else {
    cap = walkCapFor(estimate, limit)
  }
  const walked = cap === null ? null : await walkRefs(db, symbol, language, limit, cap)
  return walked ?? (await trigramRefs(db, symbol, language, limit))
}

/** Every code chunk whose body contains the symbol (case-insensitive), by slug then line. */
export async function codeRefs(db: SqlExecutor, query: CodeDefQuery, options: RefsOptions = {}): Promise<CodeReference[]> {
  const raw = typeof query.symbol === 'string' ? query.symbol.trim() : ''
  requireSymbol('code_refs', raw)
  const limit = resolveLimit('code_refs', query.limit)
  const language = canonicalLanguage(query.language)
  const byWords = WORD_SYMBOL.test(raw) ? await wordRefs(db, raw, language, limit) : null
  const rows = byWords ?? (await substringRefs(db, raw, language, limit, options))
  return rows.map((row) => ({ ...toLocation(row, snippetAround(row.body, raw)), symbolName: row.symbol_name }))
}
