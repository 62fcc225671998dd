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

function listable(text: string): boolean {
  return Buffer.byteLength(text, 'utf8') <= TIER_ENTRY_MAX_BYTES
}

/** Whether chunks list this lexeme in their tiers (longer ones must be ranked through their full posting list). */
export function tierListable(lexeme: string): boolean {
  return listable(lexeme)
}

/** The tier entries of `terms` at levels 1..level, OR-ed. */
function tiersUpTo(terms: readonly TierTerm[], level: number): string[] {
  return terms.flatMap((t) => Array.from({ length: level }, (_, i) => tierEntry(i + 1, t.lexeme)))
}

/**
 * Which chunks to rank so that the best `window` among them are the best of all, given the
 * lowest score `low` among those best after a first pass over tier 1. Every chunk left out
 * scores less than `low`:
 * - a chunk under no boost (factor ≤ 1) is outside tiers 1..level of every term, so it scores
 *   below Σ weight × tierShareBound(level);
 * - a chunk under a boost with factor f is either reached the same way at a deeper level, where
 *   f × that bound < low, or, when no level is deep enough, through its folder entry in full.
 * Returns the tsquery over search_tiers and whether it is the first pass's own, or null when no
 * choice of levels proves it (then the caller ranks every candidate).
 */
export function tierCandidates(terms: readonly TierTerm[], boosts: readonly SourceBoost[], averageLength: number, low: number): { query: string; isFirstPass: boolean } | null {
  const total = terms.reduce((sum, t) => sum + t.weight, 0)
  const levelFor = (factor: number): number | null => {
    for (let level = 1; level <= TIER_RATIOS.length; level++) {
      if (factor * total * tierShareBound(level, averageLength) * (1 + BOUND_SLACK) < low) return level
    }
    return null
  }
  const base = levelFor(1)
  if (base === null) return null
  const parts = tiersUpTo(terms, base)
  for (const boost of boosts) {
    if (boost.factor <= 1) continue
    const level = levelFor(boost.factor)
    if (level !== null && level <= base) continue
    if (!boost.prefix.endsWith('/') || !listable(boost.prefix.slice(0, -1))) return null
    parts.push(level === null ? folderEntry(boost.prefix) : `(${folderEntry(boost.prefix)} & (${tiersUpTo(terms, level).join(' | ')}))`)
  }
  return { query: parts.join(' | '), isFirstPass: base === 1 && parts.length === terms.length }
}

/** The first pass: tier 1 of every term. */
export function firstTierQuery(terms: readonly TierTerm[]): string {
  return tiersUpTo(terms, 1).join(' | ')
}
