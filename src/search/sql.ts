import type { Database, SqlExecutor, SqlParam } from '../db/index.js'
import { DatabaseError } from '../errors/index.js'
import type { SearchPlan } from './options.js'

/**
 * SQL shared by every search statement. Parameters $1–$8 are always the plan's boost prefixes
 * (as LIKE patterns), boost factors, excluded prefixes (LIKE patterns), language, symbol kind,
 * source id, page type and tag;
 * statement-specific parameters start at $9. `p` is pages and `c` is content_chunks in every statement.
 */
export function planParams(plan: SearchPlan): SqlParam[] {
  return [
    plan.boosts.map((b) => likePrefixPattern(b.prefix)),
    plan.boosts.map((b) => b.factor),
    plan.excludes.map(likePrefixPattern),
    plan.language,
    plan.symbolKind,
    plan.sourceId,
    plan.pageType,
    plan.tag,
  ]
}

/** A LIKE pattern matching strings that start with `prefix` literally. */
export function likePrefixPattern(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
}

/**
 * Factor of the longest boost prefix of the page's slug; 1.0 when none matches. The boosts
 * arrive longest prefix first, so the first WHEN that matches is the longest. A CASE over array
 * elements costs a few comparisons per row, where a subquery over unnest() sorted per row was
 * the most expensive part of a keyword search over a common word. The prefixes are matched as
 * LIKE patterns: starts_with() copies the slug's head for every comparison, which made the CASE
 * a sixth of ranking 12,000 chunks on the embedded engine, and LIKE compares in place with the
 * same answer (an escaped pattern ending in % matches exactly the strings with that prefix).
 * `slugOwner` is the alias of the row carrying the slug: `p` (pages), or `c` where search_chunks
 * carries it.
 */
export function sourceFactorSql(boostCount: number, slugOwner: 'p' | 'c' = 'p'): string {
  // Still names $1 and $2 so that every statement binds the same parameter types.
  if (boostCount === 0) return '(CASE WHEN $1::text[] IS NULL AND $2::float8[] IS NULL THEN 1.0 ELSE 1.0 END)::float8'
  const whens = Array.from({ length: boostCount }, (_, i) => `WHEN ${slugOwner}.slug LIKE ($1::text[])[${i + 1}] THEN ($2::float8[])[${i + 1}]`)
  return `(CASE ${whens.join(' ')} ELSE 1.0::float8 END)`
}

/**
 * Hard excludes (LIKE patterns in $3) and the language, symbol-kind, source, page-type and tag
 * filters, over chunk `c` and the row `pageColumns` naming the one that carries slug and
 * source_id. Type and tag live on the page, so the narrow ranking table reaches them by page_id
 * only when one is asked for.
 */
export function filterSql(pageColumns: 'p' | 'c'): string {
  return `NOT (${pageColumns}.slug LIKE ANY ($3::text[]))
  AND ($4::text IS NULL OR c.language = $4::text)
  AND ($5::text IS NULL OR c.symbol_type = $5::text)
  AND ($6::text IS NULL OR ${pageColumns}.source_id = $6::text)
  AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM pages fp WHERE fp.id = c.page_id AND fp.type = $7::text))
  AND ($8::text IS NULL OR EXISTS (SELECT 1 FROM tags ft WHERE ft.page_id = c.page_id AND ft.tag = $8::text))`
}

/** The filters over content_chunks `c` joined to pages `p`. */
export const FILTER_SQL = filterSql('p')

/** Columns a result row carries besides its score. */
/**
 * The share of `lexemes` (an SQL text[] expression) that chunk `c`'s search_vector holds: the
 * coverage hybrid search weighs by, and how a period's chunks rank without a vector.
 */
export function lexemeShareSql(lexemes: string): string {
  return `(SELECT count(*) FROM unnest(${lexemes}) AS l(lexeme)
     WHERE c.search_vector @@ quote_literal(l.lexeme)::tsquery)::float8 / GREATEST(1, cardinality(${lexemes}))`
}

export const RESULT_COLUMNS_SQL = `p.slug, p.source_id, p.title, p.type, p.page_kind, p.updated_at,
  c.id AS chunk_id, c.chunk_index, c.chunk_text, c.chunk_source, c.language, c.symbol_name,
  c.symbol_name_qualified, c.symbol_type, c.start_line, c.end_line`

export interface ResultRow {
  score: number
  slug: string
  source_id: string
  title: string
  type: string
  page_kind: 'markdown' | 'code'
  updated_at: Date
  chunk_id: number
  chunk_index: number
  chunk_text: string
  chunk_source: string
  language: string | null
  symbol_name: string | null
  symbol_name_qualified: string | null
  symbol_type: string | null
  start_line: number | null
  end_line: number | null
  /** Keyword rows asked for it: share of the query's lexemes in the chunk. */
  coverage?: number
}

/** Every search statement runs under this limit, scoped to its own transaction. */
export const SEARCH_STATEMENT_TIMEOUT_MS = 8000

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = '57014'

interface SearchTransactionOptions {
  timeoutMs?: number
  /**
   * HNSW candidate list size for vector statements in this transaction. pgvector returns at most
   * ef_search rows from an index scan, so it must be at least the statement's LIMIT.
   */
  efSearch?: number
  /**
   * The nearest-neighbour pass reads the HNSW index in distance order: plans that sort instead
   * (every vector read and compared) are priced out for this transaction (enable_sort off). The
   * statements' other sorts have no alternative, so only that choice moves.
   */
  indexOrder?: boolean
}

/** hnsw.ef_search accepts 1–1000. */
const MAX_EF_SEARCH = 1000

/**
 * Runs `fn` in a transaction whose statement_timeout is set with SET LOCAL semantics
 * (set_config(..., true)), so the session's own timeout is back in force after it. For vector
 * statements it also raises hnsw.ef_search and, on pgvector 0.8 or later, turns on iterative
 * index scans, so that filters and excludes applied after the index do not starve the result.
 * JIT compilation is off: a search statement runs for milliseconds, and PostgreSQL compiled one
 * for 350 ms once its estimated cost passed jit_above_cost (with enable_sort off, every plan
 * with a sort in it does).
 */
export async function withSearchTransaction<T>(db: Database, fn: (tx: SqlExecutor) => Promise<T>, options: SearchTransactionOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? SEARCH_STATEMENT_TIMEOUT_MS
  try {
    return await db.transaction(async (tx) => {
      // Keyword transactions run only the keyword statements, which are prepared
      // (QueryOptions.prepared) and whose plan does not depend on the query's words (a bitmap
      // scan of the full-text index either way): they take the generic plan from their first run
      // instead of planning five times per connection. Never for vector statements: the setting
      // reaches unnamed statements too, and a generic nearest-neighbour plan cannot use HNSW.
      if (options.efSearch === undefined) {
        await tx.query(`SELECT set_config('statement_timeout', $1, true), set_config('plan_cache_mode', 'force_generic_plan', true), set_config('jit', 'off', true)`, [String(timeoutMs)], {
          prepared: true,
        })
      } else {
        const ef = Math.max(40, Math.min(MAX_EF_SEARCH, Math.ceil(options.efSearch)))
        await tx.query(
          `SELECT set_config('statement_timeout', $1, true), set_config('hnsw.ef_search', $2, true),
             set_config('enable_sort', $3, true), set_config('jit', 'off', true),
             CASE WHEN (SELECT string_to_array(extversion, '.')::int[] >= '{0,8}' FROM pg_extension WHERE extname = 'vector')
                  THEN set_config('hnsw.iterative_scan', 'relaxed_order', true) END`,
          [String(timeoutMs), String(ef), options.indexOrder === true ? 'off' : 'on'],
        )
      }
      return fn(tx)
    })
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === QUERY_CANCELED) {
      throw new DatabaseError('search_timeout', `The search took longer than ${timeoutMs / 1000} s and was cancelled.`, {
        hint: 'Narrow the query (more specific words, --lang, --source, --symbol-kind) or lower --offset.',
        cause: err,
      })
    }
    throw err
  }
}
