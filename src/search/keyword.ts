import type { SqlExecutor } from '../db/types.js'
import { bm25ScoreSql, prepareQuery, type PreparedQuery } from './bm25.js'
import type { SearchPlan } from './options.js'
import { filterSql, planParams, RESULT_COLUMNS_SQL, sourceFactorSql, type ResultRow } from './sql.js'

/** The keyword stage reads this many chunks per page it returns, then keeps each page's best. */
const KEYWORD_INNER_FACTOR = 3

/**
 * Which chunks are candidates (all are then ranked by BM25). `any`: at least one of the query's
 * words; `all`: every word; `two`: at least two (all of them when the query has two or fewer).
 * "Quoted phrases" must match and -exclusions must not in every mode.
 */
export type KeywordMatch = 'all' | 'any' | 'two'

interface KeywordRequest {
  query: string
  match: KeywordMatch
  /** One result per page (page search) or every chunk (two-pass retrieval). */
  perPage: boolean
  /** Also return `coverage`: the share of the query's lexemes the chunk contains (hybrid weighting). */
  withCoverage?: boolean
}

/** Share of the query's lexemes ($16) present in the chunk's search_vector. */
const COVERAGE_SQL = `(SELECT count(*) FROM unnest($16::text[]) AS l(lexeme)
     WHERE c.search_vector @@ quote_literal(l.lexeme)::tsquery)::float8 / GREATEST(1, cardinality($16::text[])) AS coverage`

/**
 * Chunks ranked by BM25 (bm25.ts) times the source factor of their page. Per page, the inner
 * stage takes the top KEYWORD_INNER_FACTOR × (offset + limit) chunks and the outer stage keeps
 * each page's best, so a page with many matching chunks cannot crowd out the others; ties order
 * by slug and chunk index so both engines agree.
 */
export async function keywordRows(tx: SqlExecutor, plan: SearchPlan, request: KeywordRequest): Promise<ResultRow[]> {
  const prepared = await prepareQuery(tx, request.query, request.match)
  if (prepared.filter === null) return []
  if (prepared.narrowFilter !== null) {
    // Common words: rank the chunks holding two of them (or a rare one) first; the union of every
    // posting list is only ranked when those cannot fill the window.
    const narrow = await rankedRows(tx, plan, request, prepared, prepared.narrowFilter)
    if (narrow.length >= plan.limit) return narrow
  }
  return rankedRows(tx, plan, request, prepared, prepared.filter)
}

async function rankedRows(tx: SqlExecutor, plan: SearchPlan, request: KeywordRequest, prepared: PreparedQuery, filter: string): Promise<ResultRow[]> {
  const window = plan.offset + plan.limit
  const score = bm25ScoreSql(prepared.terms.length, 13, 14, 15)
  // search_chunks carries every column ranking and filtering read (slug and source included),
  // so the candidates are scored without touching content_chunks or pages; only the returned
  // rows are read in full below.
  const ranked = `SELECT c.chunk_id, c.page_id, c.slug, c.chunk_index,
        ${score} * ${sourceFactorSql(plan.boosts.length, 'c')} AS score
      FROM search_chunks c
      WHERE c.search_vector @@ $9::tsquery AND ${filterSql('c')}
      ORDER BY score DESC, c.slug, c.chunk_index
      LIMIT $10`
  const picked = request.perPage ? `SELECT DISTINCT ON (page_id) chunk_id, score FROM ranked ORDER BY page_id, score DESC, chunk_index` : `SELECT chunk_id, score FROM ranked`
  const { rows } = await tx.query<ResultRow>(
    `WITH ranked AS (${ranked}), picked AS (${picked})
     SELECT k.score, ${RESULT_COLUMNS_SQL}${request.withCoverage ? `, ${COVERAGE_SQL}` : ''}
     FROM picked k JOIN content_chunks c ON c.id = k.chunk_id JOIN pages p ON p.id = c.page_id
     ORDER BY k.score DESC, p.slug, c.chunk_index
     LIMIT $11 OFFSET $12`,
    [
      ...planParams(plan),
      filter,
      request.perPage ? KEYWORD_INNER_FACTOR * window : window,
      plan.limit,
      plan.offset,
      prepared.terms.map((t) => t.tsquery),
      prepared.terms.map((t) => t.idf),
      prepared.averageLength,
      ...(request.withCoverage ? [prepared.lexemes] : []),
    ],
    { prepared: true },
  )
  return rows
}
