import { BM25_B, BM25_K1 } from './bm25.js'
import type { SourceBoost } from './options.js'
import { quoteLexeme } from './tsquery.js'

/**
 * Impact tiers (migrations/0500_search_tiers.sql). A chunk lists a lexeme in tier j when its
 * term frequency reaches RATIO_j × (SATURATION_BASE + SATURATION_PER_LEXEME × length), and each
 * '/'-terminated prefix of its slug as `p~prefix`. The ratios and the reference saturation are
 * the SQL function's; a test compares the two.
 */
export const TIER_RATIOS = [4, 7 / 3] as const
export const SATURATION_BASE = 0.3
export const SATURATION_PER_LEXEME = 0.009
/** Lexemes and slug prefixes longer than this are never listed; such terms are ranked in full. */
export const TIER_ENTRY_MAX_BYTES = 1000

/** Relative slack on every bound, far above float8 rounding of a BM25 sum. */
const BOUND_SLACK = 1e-9

export interface TierTerm {
  lexeme: string
  /** Full BM25 weight of the term: (k1 + 1) × idf. */
  weight: number
}

/**
 * The highest share of a term's full weight a chunk can score with the term outside tiers 1..j.
 * Such a chunk has tf < a + b·len (a, b from the tier's line), and tf / (tf + k1(1 − b_bm25 +
 * b_bm25·len/avg)) over that region is a ratio of two linear functions of len, so its supremum
 * is at len = 0 or as len grows without bound.
 */
function tierShareBound(level: number, averageLength: number): number {
  const ratio = TIER_RATIOS[level - 1]!
  const a = ratio * SATURATION_BASE
  const b = ratio * SATURATION_PER_LEXEME
  const atZero = a / (a + BM25_K1 * (1 - BM25_B))
  const atInfinity = b / (b + (BM25_K1 * BM25_B) / averageLength)
  return Math.max(atZero, atInfinity)
}

function tierEntry(level: number, lexeme: string): string {
  return quoteLexeme(`${level}~${lexeme}`)
}

function folderEntry(prefix: string): string {
  return quoteLexeme(`p~${prefix}`)
}

/** Whether chunks list this lexeme or slug folder in their tiers (longer ones never are). */
export function tierListable(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') <= TIER_ENTRY_MAX_BYTES
}

/** The tier entries of each term at its levels 1..levels[i], OR-ed; null when no term is looked up. */
export function tierQuery(terms: readonly TierTerm[], levels: readonly number[]): string | null {
  const entries = terms.flatMap((t, i) => Array.from({ length: levels[i]! }, (_, level) => tierEntry(level + 1, t.lexeme)))
  return entries.length === 0 ? null : entries.join(' | ')
}

/** How many tiers chunks list. */
export const TIER_LEVELS = TIER_RATIOS.length

/**
 * The first pass: tier 1 of the term that weighs most. A word common enough to be in tier 1 of
 * a quarter of all chunks weighs little, and the others' tiers prove the window without it.
 */
export function firstPassLevels(terms: readonly TierTerm[]): number[] {
  const top = terms.reduce((best, t, i) => (t.weight > terms[best]!.weight ? i : best), 0)
  return terms.map((_, i) => (i === top ? 1 : 0))
}

/**
 * The most a chunk can score, as a multiple of its source factor, when for every term i it is
 * outside tiers 1..levels[i] (level 0: the term is not looked up, so it may weigh fully).
 */
function leftOutBound(terms: readonly TierTerm[], levels: readonly number[], averageLength: number): number {
  return terms.reduce((sum, t, i) => sum + t.weight * (levels[i] === 0 ? 1 : tierShareBound(levels[i]!, averageLength)), 0) * (1 + BOUND_SLACK)
}

/** Deepens the levels of the terms that weigh most until the chunks left out score below `limit`; null when even every tier cannot. */
function levelsBelow(terms: readonly TierTerm[], from: readonly number[], averageLength: number, limit: number): number[] | null {
  const levels = [...from]
  while (leftOutBound(terms, levels, averageLength) >= limit) {
    let next = -1
    for (let i = 0; i < terms.length; i++) if (levels[i]! < TIER_LEVELS && (next < 0 || terms[i]!.weight > terms[next]!.weight)) next = i
    if (next < 0) return null
    levels[next]!++
  }
  return levels
}

/**
 * Which chunks to rank so that the best `window` among them are the best of all, given the
 * lowest score `low` in the window after a pass over tiers 1..scanned[i] of each term i. Every
 * chunk left out scores less than `low`:
 * - a chunk under no boost (factor ≤ 1) is outside tiers 1..level[i] of every term i, so it
 *   scores below leftOutBound;
 * - a chunk under a boost with factor f is either reached the same way at deeper levels, where
 *   f × that bound < low, or, when no levels are deep enough, through its folder entry in full.
 * Returns the tsquery over search_tiers and whether it is the pass already run, or null when no
 * choice of levels proves it (then the caller ranks every candidate).
 */
export function tierCandidates(
  terms: readonly TierTerm[],
  boosts: readonly SourceBoost[],
  averageLength: number,
  low: number,
  scanned: readonly number[],
): { query: string; alreadyRanked: boolean } | null {
  const base = levelsBelow(terms, scanned, averageLength, low)
  const baseQuery = base === null ? null : tierQuery(terms, base)
  if (base === null || baseQuery === null) return null
  const parts = [baseQuery]
  for (const boost of boosts) {
    if (boost.factor <= 1) continue
    const levels = levelsBelow(terms, base, averageLength, low / boost.factor)
    if (levels !== null && levels.every((level, i) => level === base[i])) continue
    if (!boost.prefix.endsWith('/') || !tierListable(boost.prefix.slice(0, -1))) return null
    const deeper = levels === null ? null : tierQuery(terms, levels)
    parts.push(deeper === null ? folderEntry(boost.prefix) : `(${folderEntry(boost.prefix)} & (${deeper}))`)
  }
  return { query: parts.join(' | '), alreadyRanked: parts.length === 1 && base.every((level, i) => level === scanned[i]) }
}
