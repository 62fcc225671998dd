/**
 * The chunks of the pages written in a period (front matter `date` from one day to another),
 * ranked against a question: by cosine similarity to its vector where the chunk has one of the
 * active model, else by the share of its words the chunk holds. Meant for a question that names a
 * period ("what did Joanna achieve in January 2022?"), whose evidence may share no word with it
 * and rank far down the brain-wide search. The period's pages are read through their date index,
 * and only when there are few of them: a period that holds most of the brain narrows nothing.
 */
import { resolveEmbedder, mapRows, type SearchDeps } from './deps.js'
import { planSearch } from './options.js'
import { FILTER_SQL, RESULT_COLUMNS_SQL, lexemeShareSql, planParams, sourceFactorSql, type ResultRow, withSearchTransaction } from './sql.js'
import type { SearchOptions, SearchResult } from './types.js'
import { embeddedChunks, embedQuery } from './vector.js'

/** A period holding more pages than this (after the source filter) is not searched. */
export const PERIOD_MAX_PAGES = 1000

/** The expression and predicate of migration 0600's index, written as it is so the index serves. */
const WRITTEN_ON = `left(p.frontmatter->>'date', 10)`
const HAS_ISO_DATE = `p.frontmatter->>'date' ~ '^\\d{4}-\\d{2}-\\d{2}'`

export interface PeriodBounds {
  /** First day, ISO. */
  from: string
  /** Last day, ISO, inclusive. */
  to: string
}

/**
 * The best `options.limit` chunks of the pages dated within `period`, best first; empty when the
 * period holds more than PERIOD_MAX_PAGES pages or none.
 */
export async function searchPeriod(deps: SearchDeps, question: string, period: PeriodBounds, options: Pick<SearchOptions, 'limit' | 'sourceId'> = {}): Promise<SearchResult[]> {
  const plan = planSearch(options, deps.settings)
  const vector = await questionVector(deps, question)
  const rows = await withSearchTransaction(deps.db, async (tx) => {
    const { rows } = await tx.query<ResultRow>(
      `WITH dated AS (
         SELECT p.id FROM pages p
         WHERE ${HAS_ISO_DATE} AND ${WRITTEN_ON} BETWEEN $12::text AND $13::text
           AND ($6::text IS NULL OR p.source_id = $6::text)
         LIMIT $14
       ),
       asked AS (
         SELECT ARRAY(SELECT DISTINCT l FROM unnest(tsvector_to_array(to_tsvector(brain_search_language(), brain_search_text($9::text)))) AS l) AS lexemes
       )
       SELECT CASE WHEN $10::vector IS NOT NULL AND c.model = $11::text AND c.embedding IS NOT NULL
                   THEN 1 - (c.embedding <=> $10::vector)
                   ELSE ${lexemeShareSql('a.lexemes')}
              END * ${sourceFactorSql(plan.boosts.length)} AS score,
         ${RESULT_COLUMNS_SQL}
       FROM dated d JOIN pages p ON p.id = d.id JOIN content_chunks c ON c.page_id = p.id, asked a
       WHERE (SELECT count(*) FROM dated) <= $15 AND ${FILTER_SQL}
       ORDER BY score DESC, p.slug, c.chunk_index
       LIMIT $16`,
      [...planParams(plan), question, vector?.literal ?? null, vector?.model ?? null, period.from, period.to, PERIOD_MAX_PAGES + 1, PERIOD_MAX_PAGES, plan.limit],
    )
    return rows
  })
  return mapRows(rows, question, plan, deps)
}

/** The question's vector, when an embedder is configured, usable and some chunk carries its vectors. */
async function questionVector(deps: SearchDeps, question: string): Promise<{ literal: string; model: string } | null> {
  if (deps.embedder === undefined && deps.embedding === undefined) return null
  try {
    const embedder = await resolveEmbedder(deps)
    if ((await embeddedChunks(deps.db, embedder.model)) === 0) return null
    const { literal } = await embedQuery(embedder, question, deps.signal)
    return literal === null ? null : { literal, model: embedder.model }
  } catch {
    // Without a usable model the period is ranked on words, as hybrid search falls back to them.
    return null
  }
}

/**
 * The latest day (ISO) of the pages with a front matter date, of one source or all: the day a
 * month named without its year ("in May") is counted back from.
 */
export async function latestDatedDay(deps: Pick<SearchDeps, 'db'>, sourceId: string | null = null): Promise<string | null> {
  const { rows } = await deps.db.query<{ day: string | null }>(`SELECT max(${WRITTEN_ON}) AS day FROM pages p WHERE ${HAS_ISO_DATE} AND ($1::text IS NULL OR p.source_id = $1::text)`, [sourceId])
  return rows[0]?.day ?? null
}
