import type { SqlExecutor } from '../db/types.js'
import type { SearchPlan } from './options.js'
import { queryTerms } from './snippet.js'
import { FILTER_SQL, planParams, RESULT_COLUMNS_SQL, sourceFactorSql, type ResultRow } from './sql.js'
import { lexemeTsquery } from './tsquery.js'

/** The keyword stage reads this many chunks per page it returns, then keeps each page's best. */
export const KEYWORD_INNER_FACTOR = 3

/**
 * `all`: every term must match, in web-search syntax ("quoted phrases", -exclusions, or).
 * `any`: at least one term, ranked by how well the chunk matches.
 * `two`: at least two terms (all of them when the query has two or fewer): the keyword side of
 * hybrid search, where a single shared word among several is weak evidence and, as the union of
 * whole posting lists, the most expensive set to rank.
 */
export type KeywordMatch = 'all' | 'any' | 'two'

export interface KeywordRequest {
  query: string
  match: KeywordMatch
  /** One result per page (page search) or every chunk (two-pass retrieval). */
  perPage: boolean
  /** Also return `coverage`: the share of the query's lexemes the chunk contains (hybrid weighting). */
  withCoverage?: boolean
}

/** Share of the query's lexemes ($11) present in the chunk's search_vector. */
const COVERAGE_SQL = `(SELECT count(*) FROM unnest($11::text[]) AS l(lexeme)
     WHERE c.search_vector @@ quote_literal(l.lexeme)::tsquery)::float8 / GREATEST(1, cardinality($11::text[])) AS coverage`

/** The query's distinct lexemes under the 'english' configuration: stemmed, stop words dropped. */
async function queryLexemes(tx: SqlExecutor, query: string): Promise<string[]> {
  const { rows } = await tx.query<{ lexemes: string[] }>(`SELECT tsvector_to_array(to_tsvector('english', $1::text)) AS lexemes`, [query])
  return rows[0]?.lexemes ?? []
}

/** The tsquery expression for `$7` and the value to bind; null when nothing can match. */
function tsquery(request: KeywordRequest, lexemes: readonly string[] | null): { sql: string; value: string } | null {
  if (request.match === 'all') return queryTerms(request.query).length === 0 ? null : { sql: `websearch_to_tsquery('english', $7::text)`, value: request.query }
  const value = lexemeTsquery(lexemes ?? [], request.match)
  return value === '' ? null : { sql: '$7::tsquery', value }
}

/**
 * Chunks ranked by ts_rank over their search_vector times the source factor of their page. Per
 * page, the inner stage takes the top KEYWORD_INNER_FACTOR × (offset + limit) chunks and the
 * outer stage keeps each page's best, so a page with many matching chunks cannot crowd out the
 * others; ties order by slug and chunk index so both engines agree.
 */
export async function keywordRows(tx: SqlExecutor, plan: SearchPlan, request: KeywordRequest): Promise<ResultRow[]> {
  const lexemes = request.match !== 'all' || request.withCoverage ? await queryLexemes(tx, request.query) : null
  const q = tsquery(request, lexemes)
  if (q === null) return []
  const window = plan.offset + plan.limit
  const ranked = `SELECT c.id AS chunk_id, c.page_id, p.slug, c.chunk_index,
        ts_rank(c.search_vector, ${q.sql}) * ${sourceFactorSql(plan.boosts.length)} AS score
      FROM content_chunks c JOIN pages p ON p.id = c.page_id
      WHERE c.search_vector @@ ${q.sql} AND ${FILTER_SQL}
      ORDER BY score DESC, p.slug, c.chunk_index
      LIMIT $8`
  const picked = request.perPage
    ? `SELECT DISTINCT ON (page_id) chunk_id, score FROM ranked ORDER BY page_id, score DESC, chunk_index`
    : `SELECT chunk_id, score FROM ranked`
  const { rows } = await tx.query<ResultRow>(
    `WITH ranked AS (${ranked}), picked AS (${picked})
     SELECT k.score, ${RESULT_COLUMNS_SQL}${request.withCoverage ? `, ${COVERAGE_SQL}` : ''}
     FROM picked k JOIN content_chunks c ON c.id = k.chunk_id JOIN pages p ON p.id = c.page_id
     ORDER BY k.score DESC, p.slug, c.chunk_index
     LIMIT $9 OFFSET $10`,
    [
      ...planParams(plan),
      q.value,
      request.perPage ? KEYWORD_INNER_FACTOR * window : window,
      plan.limit,
      plan.offset,
      ...(request.withCoverage ? [lexemes ?? []] : []),
    ],
  )
  return rows
}
