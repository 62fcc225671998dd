import type { SqlExecutor } from '../db/index.js'
import { likePrefixPattern } from './sql.js'
import { lexemeTsquery, parseQuery, quoteLexeme } from './tsquery.js'

/**
 * Okapi BM25 parameters. k1 saturates term frequency, b scales length normalisation; chosen on
 * the tuning halves of bench/retrieval (see src/search/README.md).
 */
export const BM25_K1 = 1.2
export const BM25_B = 0.75

/** One scored query term: a lexeme, or a prefix matching every lexeme that starts with it. */
interface ScoredTerm {
  tsquery: string
  idf: number
  /** The lexeme of a word term; null for a prefix term. */
  lexeme: string | null
  /** Chunks holding the term. */
  df: number
}

/** A keyword query made ready for SQL: what a chunk must match, and how to score it. */
export interface PreparedQuery {
  /** The distinct lexemes of the query's words and phrases (for hybrid coverage). */
  lexemes: string[]
  terms: ScoredTerm[]
  /** The tsquery a candidate must match; null when nothing can. */
  filter: string | null
  /**
   * For `any` queries whose words' posting lists together exceed UNION_BUDGET chunks: the
   * candidates to rank first (chunks holding two of the words, or any word rarer than RARE_DF).
   */
  narrowFilter: string | null
  averageLength: number
}

type CandidateMatch = 'all' | 'any' | 'two'

/** Above this many postings (summed over the query's words) an `any` query ranks a narrower set first. */
export const UNION_BUDGET = 2000
/** Words in fewer chunks than this stay single-word candidates in the narrower set. */
export const RARE_DF = 200

interface PrepareRow {
  lexemes: string[] | null
  prefixes: string[] | null
  phrases: string[] | null
  excluded: string[] | null
  lexeme_df: string[] | null
  prefix_df: string[] | null
  chunk_count: string | null
  total_length: string | null
}

/**
 * Normalises the query's parts with the brain's text-search configuration (search.language) (stemming, stop words, phrase
 * positions) and reads the statistics BM25 needs, in one statement.
 */
const PREPARE_SQL = `WITH lex AS (
    SELECT DISTINCT l FROM unnest(tsvector_to_array(to_tsvector(brain_search_language(), brain_search_text($1::text)))) AS l
  ), pre AS (
    SELECT DISTINCT coalesce((tsvector_to_array(to_tsvector(brain_search_language(), w)))[1], lower(w)) AS p FROM unnest($2::text[]) AS w
  ), phr AS (
    SELECT websearch_to_tsquery(brain_search_language(), '"' || replace(brain_search_text(x), '"', ' ') || '"') AS q FROM unnest($3::text[]) AS x
  ), exc AS (
    SELECT websearch_to_tsquery(brain_search_language(), '"' || replace(brain_search_text(x), '"', ' ') || '"') AS q FROM unnest($4::text[]) AS x
  )
  SELECT
    (SELECT array_agg(l ORDER BY l) FROM lex) AS lexemes,
    (SELECT array_agg(p ORDER BY p) FROM pre) AS prefixes,
    (SELECT array_agg(q::text) FROM phr WHERE numnode(q) > 0) AS phrases,
    (SELECT array_agg(q::text) FROM exc WHERE numnode(q) > 0) AS excluded,
    (SELECT array_agg(coalesce((SELECT s.chunk_count FROM search_lexeme_stats s WHERE s.lexeme = l), 0)::text ORDER BY l) FROM lex) AS lexeme_df,
    (SELECT array_agg(coalesce((SELECT sum(s.chunk_count) FROM search_lexeme_stats s WHERE s.lexeme LIKE ${likePatternSql('p')}), 0)::text ORDER BY p) FROM pre) AS prefix_df,
    (SELECT chunk_count::text FROM search_corpus_stats WHERE id = 1) AS chunk_count,
    (SELECT total_length::text FROM search_corpus_stats WHERE id = 1) AS total_length`

function likePatternSql(column: string): string {
  return `replace(replace(replace(${column}, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`
}

/** Robertson–Spärck Jones idf with the +1 inside the logarithm, so that it is never negative. */
export function bm25Idf(documentFrequency: number, documentCount: number): number {
  const df = Math.min(Math.max(documentFrequency, 0), documentCount)
  return Math.log(1 + (documentCount - df + 0.5) / (df + 0.5))
}

export async function prepareQuery(tx: SqlExecutor, query: string, match: CandidateMatch): Promise<PreparedQuery> {
  const parsed = parseQuery(query)
  const { rows } = await tx.query<PrepareRow>(PREPARE_SQL, [[...parsed.words, ...parsed.phrases].join(' '), parsed.prefixes, parsed.phrases, parsed.excluded], { prepared: true })
  const row = rows[0]
  const lexemes = row?.lexemes ?? []
  const prefixes = row?.prefixes ?? []
  const documentCount = Number(row?.chunk_count ?? 0)
  const averageLength = documentCount > 0 ? Math.max(1, Number(row?.total_length ?? 0) / documentCount) : 1
  const lexemeDf = lexemes.map((_, i) => Number(row?.lexeme_df?.[i] ?? 0))
  const prefixDf = prefixes.map((_, i) => Number(row?.prefix_df?.[i] ?? 0))
  const terms: ScoredTerm[] = [
    ...lexemes.map((l, i) => ({ tsquery: quoteLexeme(l), idf: bm25Idf(lexemeDf[i]!, documentCount), lexeme: l, df: lexemeDf[i]! })),
    ...prefixes.map((p, i) => ({ tsquery: `${quoteLexeme(p)}:*`, idf: bm25Idf(prefixDf[i]!, documentCount), lexeme: null, df: prefixDf[i]! })),
  ]
  const required = (row?.phrases ?? []).map((q) => `(${q})`)
  const excluded = (row?.excluded ?? []).map((q) => `!(${q})`)
  // Phrase words are scored like the other words, but the phrase itself is what a chunk must match.
  const phraseOnly = required.length > 0 && parsed.words.length + parsed.prefixes.length === 0
  const compose = (optional: string): string | null => {
    const positive = [optional === '' || phraseOnly ? null : `(${optional})`, ...required].filter((part) => part !== null)
    return positive.length === 0 ? null : [...positive, ...excluded].join(' & ')
  }
  const filter = compose(lexemeTsquery(lexemes, match, prefixes))
  const postings = [...lexemeDf, ...prefixDf].reduce((a, b) => a + b, 0)
  // A word no chunk holds cannot make a chunk hold two words: the narrow set is built from the
  // others, and with fewer than two of them it is the full set or empty, so it is skipped.
  const heldLexemes = lexemes.filter((_, i) => lexemeDf[i]! > 0)
  const heldPrefixes = prefixes.filter((_, i) => prefixDf[i]! > 0)
  let narrowFilter: string | null = null
  if (match === 'any' && !phraseOnly && heldLexemes.length + heldPrefixes.length >= 2 && postings > UNION_BUDGET) {
    const isRare = (df: number): boolean => df > 0 && df < RARE_DF
    const rare = [...lexemes.filter((_, i) => isRare(lexemeDf[i]!)).map(quoteLexeme), ...prefixes.filter((_, i) => isRare(prefixDf[i]!)).map((p) => `${quoteLexeme(p)}:*`)]
    narrowFilter = compose([lexemeTsquery(heldLexemes, 'two', heldPrefixes), ...rare].join(' | '))
  }
  return { lexemes, terms, filter, narrowFilter, averageLength }
}

/**
 * The term frequency of one lexeme (tsquery `term`) in `vector`, read back from ts_rank with every
 * weight 1 and no normalisation: for one lexeme that is H(tf)/ζ(2), H the partial sum of 1/j²,
 * which this inverts exactly (rounding). The impact tiers' proof depends on that exactness.
 */
export function termFrequencySql(vector: string, term: string): string {
  const rank = `LEAST(ts_rank('{1,1,1,1}'::float4[], ${vector}, ${term}), 0.9999::float4)`
  return `round(1 / (1.64493406685 * (1 - ${rank})) - 0.5)`
}

/**
 * The BM25 score of chunk `c` over the terms bound as tsquery[] `termsParam` with idf float8[]
 * `idfParam`, average length `avgParam`. Term frequency comes from termFrequencySql, so each term
 * costs one binary search in the vector and no unnesting. A prefix term sums over the lexemes it
 * matches and saturates.
 */
export function bm25ScoreSql(termCount: number, termsParam: number, idfParam: number, avgParam: number): string {
  if (termCount === 0) return '0::float8'
  const saturation = `(${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * coalesce(c.search_length, length(c.search_vector)) / $${avgParam}::float8))`
  const parts = Array.from({ length: termCount }, (_, i) => {
    const tf = termFrequencySql('c.search_vector', `($${termsParam}::tsquery[])[${i + 1}]`)
    return `($${idfParam}::float8[])[${i + 1}] * (1 - ${saturation} / (${tf} + ${saturation}))`
  })
  return `(${(BM25_K1 + 1).toString()}::float8 * (${parts.join(' + ')}))`
}

/** The highest BM25 score the query can reach: every term present, frequency saturated. */
export function keywordBound(prepared: Pick<PreparedQuery, 'terms'>): number {
  return prepared.terms.reduce((sum, t) => sum + t.idf * (BM25_K1 + 1), 0)
}
