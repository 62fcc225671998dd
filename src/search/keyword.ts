import type { SqlExecutor, SqlParam } from '../db/index.js'
import { BM25_K1, bm25ScoreSql, prepareQuery, RARE_DF, UNION_BUDGET, type PreparedQuery } from './bm25.js'
import type { SearchPlan } from './options.js'
import { filterSql, lexemeShareSql, planParams, RESULT_COLUMNS_SQL, sourceFactorSql, type ResultRow } from './sql.js'
import {
  firstPassLevels,
  hasPresence,
  levelsPlan,
  planCandidates,
  planCovers,
  TIER_LEVELS,
  tierListable,
  tierPlan,
  withoutPresence,
  type PresenceCandidates,
  type TierPlan,
  type TierTerm,
} from './tiers.js'

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
  /** Rank every candidate, never through the impact tiers (what tests compare the tiers with). */
  exhaustive?: boolean
}

/** Share of the query's lexemes ($16) present in the chunk's search_vector. */
const COVERAGE_SQL = `${lexemeShareSql('$16::text[]')} AS coverage`

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
  const split = request.exhaustive ? null : tierTerms(prepared)
  if (split !== null) {
    const rows = await tieredRows(tx, plan, request, prepared, filter, split)
    if (rows !== null) return rows
  }
  return (await rankedStatement(tx, plan, request, prepared, filter, null)).rows
}

interface TierSplit {
  /** Words looked up in the impact tiers. */
  common: TierTerm[]
  /** Words whose whole posting list is ranked (rare or too long to be listed), as one tsquery. */
  rare: string | null
}

/**
 * The query's words split for a tiered ranking, or null when it cannot pay or cannot be proven:
 * a prefix term (its lexemes are not known ahead), or posting lists short enough to rank whole.
 */
function tierTerms(prepared: PreparedQuery): TierSplit | null {
  if (prepared.terms.some((t) => t.lexeme === null)) return null
  if (prepared.terms.reduce((sum, t) => sum + t.df, 0) <= UNION_BUDGET) return null
  const common: TierTerm[] = []
  const rare: string[] = []
  for (const term of prepared.terms) {
    if (term.df >= RARE_DF && tierListable(term.lexeme!)) common.push({ lexeme: term.lexeme!, weight: (BM25_K1 + 1) * term.idf })
    else rare.push(term.tsquery)
  }
  return common.length === 0 ? null : { common, rare: rare.length > 0 ? rare.join(' | ') : null }
}

/** Passes after the first that one ranking may take before it ranks every candidate. */
const MAX_WIDER_PASSES = 3

/**
 * Ranks the chunks where the common words weigh most (tier 1 of the word that weighs most; all
 * words' tier 1, then both tiers, while that cannot fill the window), then, from the lowest
 * score that made the window, the wider set that proves no other chunk could have made it
 * (tiers.ts); the rows are then exactly those of ranking every candidate. A wider set that
 * reads posting lists (word sets) is first tried on its tier lists alone: the window that
 * ranks often scores high enough to need no posting list. Null when the tiers cannot fill the
 * window or no wider set proves it.
 */
async function tieredRows(tx: SqlExecutor, plan: SearchPlan, request: KeywordRequest, prepared: PreparedQuery, filter: string, split: TierSplit): Promise<ResultRow[] | null> {
  const inner = innerLimit(plan, request)
  const candidatesOf = (tiers: TierPlan): PassCandidates => ({ ...planCandidates(split.common, tiers), rare: split.rare })
  const pass = (tiers: TierPlan): Promise<RankedResult> => rankedStatement(tx, plan, request, prepared, filter, candidatesOf(tiers))
  let ranked: TierPlan = levelsPlan(firstPassLevels(split.common))
  let result = await pass(ranked)
  for (let level = 1; level <= TIER_LEVELS && result.rankedCount < inner; level++) {
    const every = split.common.map(() => level)
    if (every.every((l, i) => l === ranked.base[i])) continue
    ranked = levelsPlan(every)
    result = await pass(ranked)
  }
  if (result.rankedCount < inner || result.rankedLow === null) return null
  let proof = { plan: ranked, low: result.rankedLow }
  // The wider set holds every chunk that scores `proof.low` or more, and the last pass found a
  // window of them, so ranking the wider set gives the exact window.
  const rankWider = async (wider: TierPlan): Promise<ResultRow[] | null> => {
    const widened = await pass(wider)
    return widened.rankedCount >= inner ? widened.rows : null
  }
  for (let step = 0; step < MAX_WIDER_PASSES; step++) {
    const wider = tierPlan(split.common, plan.boosts, prepared.averageLength, proof.low, proof.plan.base)
    if (wider === null) return null
    if (planCovers(proof.plan, wider)) return result.rows
    const tiersOnly = withoutPresence(wider)
    if (planCovers(proof.plan, tiersOnly)) {
      // Only word sets are left. Their chunks are outside every tier of the words they hold, so
      // they seldom reach the window: checking that none does is cheaper than ranking them in.
      const sets = { tiers: null, rare: null, presence: candidatesOf(wider).presence }
      if (!(await anyBeyondBeats(tx, plan, prepared, filter, candidatesOf(proof.plan), sets, proof.low))) return result.rows
      return rankWider(wider)
    }
    if (!hasPresence(wider) || step === MAX_WIDER_PASSES - 1) return rankWider(wider)
    // The tier lists alone, far shorter than the posting lists word sets read: the window they
    // give often scores high enough that no word set is left to rank.
    const narrower = await pass(tiersOnly)
    if (narrower.rankedCount < inner || narrower.rankedLow === null) return rankWider(wider)
    result = narrower
    proof = { plan: tiersOnly, low: narrower.rankedLow }
  }
  return null
}

function innerLimit(plan: SearchPlan, request: KeywordRequest): number {
  const window = plan.offset + plan.limit
  return request.perPage ? KEYWORD_INNER_FACTOR * window : window
}

interface RankedResult {
  rows: ResultRow[]
  /** How many chunks the inner ranking kept, and the lowest score among them (tiered passes only). */
  rankedCount: number
  rankedLow: number | null
}

interface RankedRow extends ResultRow {
  ranked_count?: number
  ranked_low?: number | null
}

/** The chunks a tiered pass ranks: its tier lists, word sets and rare words. */
interface PassCandidates {
  tiers: string | null
  rare: string | null
  presence: readonly PresenceCandidates[]
}

/** The SQL condition that a chunk of search_chunks `c` is among `candidates`; appends their tsqueries to `params`. */
function candidateCondition(candidates: PassCandidates, params: SqlParam[]): string {
  const conditions: string[] = []
  if (candidates.tiers !== null) {
    params.push(candidates.tiers)
    conditions.push(`c.search_tiers @@ $${params.length}::tsquery`)
  }
  const anywhere = [candidates.rare, ...candidates.presence.filter((p) => p.folder === null).map((p) => p.words)].filter((q) => q !== null)
  if (anywhere.length > 0) {
    params.push(anywhere.map((q) => `(${q})`).join(' | '))
    conditions.push(`c.search_vector @@ $${params.length}::tsquery`)
  }
  for (const { folder, words } of candidates.presence) {
    if (folder === null) continue
    params.push(folder, words)
    conditions.push(`(c.search_tiers @@ $${params.length - 1}::tsquery AND c.search_vector @@ $${params.length}::tsquery)`)
  }
  return conditions.length === 0 ? 'false' : `(${conditions.join(' OR ')})`
}

/**
 * Whether a chunk among `beyond` but not among `held` scores `low` or more: when none does, a
 * window whose lowest score is `low`, ranked over `held`, is the window over both. Only those
 * chunks are scored, and none is sorted.
 */
async function anyBeyondBeats(tx: SqlExecutor, plan: SearchPlan, prepared: PreparedQuery, filter: string, held: PassCandidates, beyond: PassCandidates, low: number): Promise<boolean> {
  const params: SqlParam[] = [...planParams(plan), filter, low, prepared.terms.map((t) => t.tsquery), prepared.terms.map((t) => t.idf), prepared.averageLength]
  const score = bm25ScoreSql(prepared.terms.length, 11, 12, 13)
  const inBeyond = candidateCondition(beyond, params)
  const inHeld = candidateCondition(held, params)
  const { rows } = await tx.query<{ beats: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM search_chunks c
       WHERE (c.search_vector @@ $9::tsquery) IS TRUE AND ${filterSql('c')} AND ${inBeyond} AND ${inHeld} IS NOT TRUE
         AND ${score} * ${sourceFactorSql(plan.boosts.length, 'c')} >= $10::float8) AS beats`,
    params,
    { prepared: true },
  )
  return rows[0]?.beats !== false
}

async function rankedStatement(tx: SqlExecutor, plan: SearchPlan, request: KeywordRequest, prepared: PreparedQuery, filter: string, candidates: PassCandidates | null): Promise<RankedResult> {
  const score = bm25ScoreSql(prepared.terms.length, 13, 14, 15)
  const params: SqlParam[] = [
    ...planParams(plan),
    filter,
    innerLimit(plan, request),
    plan.limit,
    plan.offset,
    prepared.terms.map((t) => t.tsquery),
    prepared.terms.map((t) => t.idf),
    prepared.averageLength,
    ...(request.withCoverage ? [prepared.lexemes] : []),
  ]
  // With tier candidates the query's own filter is checked on them, never used to find them:
  // `IS TRUE` keeps it out of the index conditions, since under a generic plan the planner
  // cannot tell that the tier lists are the narrower of the two.
  const matchSql = candidates === null ? 'c.search_vector @@ $9::tsquery' : '(c.search_vector @@ $9::tsquery) IS TRUE'
  const candidateSql = candidates === null ? '' : `AND ${candidateCondition(candidates, params)}`
  // search_chunks carries every column ranking and filtering read (slug and source included),
  // so the candidates are scored without touching content_chunks or pages; only the returned
  // rows are read in full below.
  const ranked = `SELECT c.chunk_id, c.page_id, c.slug, c.chunk_index,
        ${score} * ${sourceFactorSql(plan.boosts.length, 'c')} AS score
      FROM search_chunks c
      WHERE ${matchSql} AND ${filterSql('c')} ${candidateSql}
      ORDER BY score DESC, c.slug, c.chunk_index
      LIMIT $10`
  const picked = request.perPage ? `SELECT DISTINCT ON (page_id) chunk_id, score FROM ranked ORDER BY page_id, score DESC, chunk_index` : `SELECT chunk_id, score FROM ranked`
  const extent = candidates === null ? '' : `, (SELECT count(*) FROM ranked)::int AS ranked_count, (SELECT min(score) FROM ranked) AS ranked_low`
  const { rows } = await tx.query<RankedRow>(
    `WITH ranked AS (${ranked}), picked AS (${picked})
     SELECT k.score, ${RESULT_COLUMNS_SQL}${request.withCoverage ? `, ${COVERAGE_SQL}` : ''}${extent}
     FROM picked k JOIN content_chunks c ON c.id = k.chunk_id JOIN pages p ON p.id = c.page_id
     ORDER BY k.score DESC, p.slug, c.chunk_index
     LIMIT $11 OFFSET $12`,
    params,
    { prepared: true },
  )
  if (candidates === null) return { rows, rankedCount: 0, rankedLow: null }
  const first = rows[0]
  return {
    rows: rows.map(({ ranked_count: _count, ranked_low: _low, ...row }) => row),
    rankedCount: first?.ranked_count ?? 0,
    rankedLow: first?.ranked_low ?? null,
  }
}
