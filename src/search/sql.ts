import type { SqlParam } from '../db/types.js'
import type { SearchPlan } from './options.js'

/**
 * SQL shared by every search statement. Parameters $1–$6 are always the plan's boost prefixes,
 * boost factors, excluded prefixes, language, symbol kind and source id; statement-specific
 * parameters start at $7. `p` is pages and `c` is content_chunks in every statement.
 */
export const FIRST_OWN_PARAM = 7

export function planParams(plan: SearchPlan): SqlParam[] {
  return [
    plan.boosts.map((b) => b.prefix),
    plan.boosts.map((b) => b.factor),
    plan.excludes,
    plan.language,
    plan.symbolKind,
    plan.sourceId,
  ]
}

/** Factor of the longest boost prefix of the page's slug; 1.0 when none matches. */
export const SOURCE_FACTOR_SQL = `COALESCE((SELECT b.factor FROM unnest($1::text[], $2::float8[]) AS b(prefix, factor)
  WHERE starts_with(p.slug, b.prefix) ORDER BY length(b.prefix) DESC LIMIT 1), 1.0)`

/** Hard excludes and the language, symbol-kind and source filters. */
export const FILTER_SQL = `NOT EXISTS (SELECT 1 FROM unnest($3::text[]) AS x(prefix) WHERE starts_with(p.slug, x.prefix))
  AND ($4::text IS NULL OR c.language = $4::text)
  AND ($5::text IS NULL OR c.symbol_type = $5::text)
  AND ($6::text IS NULL OR p.source_id = $6::text)`

/** Columns a result row carries besides its score. */
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
