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
 * The share is tf / (tf + k1(1 − b_bm25 + b_bm25·len/avg)): it rises with tf and falls with len.
 * A chunk holding the term outside the tiers has an integer tf ≥ 1, len ≥ tf (its length counts
 * every position) and tf < a + b·len (a, b from the tier's line), so len > (tf − a)/b. At the
 * least such len the share is, as tf grows, first rising (while len = tf) and then a ratio of
 * two linear functions of tf, so its supremum is at tf = 1, at a whole tf either side of the knee
 * between the two, or as tf grows without bound. The length is not rounded up to a whole number:
 * a chunk exactly on the line may fall either side of it in floating point.
 */
export function tierShareBound(level: number, averageLength: number): number {
  const ratio = TIER_RATIOS[level - 1]!
  const a = ratio * SATURATION_BASE
  const b = ratio * SATURATION_PER_LEXEME
  const shareAt = (tf: number): number => {
    const length = Math.max(tf, (tf - a) / b)
    return tf / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength))
  }
  // tf is a whole number: on the rising part the highest is the last one before the knee, on
  // the other the first one after it or the limit.
  const knee = a / (1 - b)
  const atInfinity = b / (b + (BM25_K1 * BM25_B) / averageLength)
  return Math.max(shareAt(1), shareAt(Math.max(1, Math.floor(knee))), shareAt(Math.max(1, Math.ceil(knee))), atInfinity)
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
function tierQuery(terms: readonly TierTerm[], levels: readonly number[]): string | null {
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

/** Beyond this many common words, presence is not split into sets of words: any word present counts. */
const MAX_PRESENCE_TERMS = 8

/**
 * Chunks outside tiers 1..levels[i] of every term i, holding the set S of terms at all, score
 * below the sum over S of each term's left-out bound. Returns the smallest sets of terms (as
 * indexes) whose bounds reach `limit`: every left-out chunk that could reach it holds one of
 * them. Empty when no set reaches it. Beyond MAX_PRESENCE_TERMS terms, each term alone.
 */
function presenceSets(terms: readonly TierTerm[], levels: readonly number[], averageLength: number, limit: number): number[][] {
  const bounds = terms.map((t, i) => leftOutBound([t], [levels[i]!], averageLength))
  if (bounds.reduce((sum, b) => sum + b, 0) < limit) return []
  if (terms.length > MAX_PRESENCE_TERMS) return terms.map((_, i) => [i])
  const sets: number[][] = []
  for (let mask = 1; mask < 1 << terms.length; mask++) {
    const members = terms.flatMap((_, i) => (mask & (1 << i) ? [i] : []))
    const sum = members.reduce((total, i) => total + bounds[i]!, 0)
    // Only the smallest sets: without any one member the rest stays below the limit.
    if (sum >= limit && members.every((i) => sum - bounds[i]! < limit)) sets.push(members)
  }
  return sets
}

/** The sets as a tsquery over search_vector: any set with all its words. */
function presenceQuery(terms: readonly TierTerm[], sets: readonly number[][]): string {
  return sets
    .map((set) => {
      const words = set.map((i) => quoteLexeme(terms[i]!.lexeme))
      return words.length === 1 ? words[0]! : `(${words.join(' & ')})`
    })
    .join(' | ')
}

/** Chunks to rank beyond the tier lists: those holding `words` (a tsquery over search_vector), in `folder` (a search_tiers entry) when set. */
export interface PresenceCandidates {
  folder: string | null
  words: string
}

/** Which chunks a pass ranks beyond those of `TierPlan.base`: the ones in a boosted folder. */
interface FolderPlan {
  prefix: string
  levels: number[]
  presence: number[][]
}

/**
 * The chunks one pass ranks: those in tiers 1..base[i] of some term i, or holding every word of
 * a presence set; in each listed folder also those at the folder's levels and presence sets.
 * Chunks holding a rare word are always ranked besides.
 */
export interface TierPlan {
  base: number[]
  presence: number[][]
  folders: FolderPlan[]
}

/** The plan of a pass over tiers 1..levels[i] of each term and nothing else. */
export function levelsPlan(levels: readonly number[]): TierPlan {
  return { base: [...levels], presence: [], folders: [] }
}

/** What a pass of `plan` looks up: a tsquery over search_tiers, and word sets over search_vector (in a folder, or anywhere when folder is null). */
export function planCandidates(terms: readonly TierTerm[], plan: TierPlan): { tiers: string; presence: PresenceCandidates[] } {
  const parts = [tierQuery(terms, plan.base)].filter((q) => q !== null)
  const presence: PresenceCandidates[] = plan.presence.length > 0 ? [{ folder: null, words: presenceQuery(terms, plan.presence) }] : []
  for (const folder of plan.folders) {
    const entry = folderEntry(folder.prefix)
    const deeper = tierQuery(terms, folder.levels)
    if (deeper !== null) parts.push(`(${entry} & (${deeper}))`)
    if (folder.presence.length > 0) presence.push({ folder: entry, words: presenceQuery(terms, folder.presence) })
  }
  // A tier entry no chunk lists keeps the statement valid when the plan looks up no tier.
  return { tiers: parts.length > 0 ? parts.join(' | ') : quoteLexeme('0~'), presence }
}

/** The same plan without word sets: tier lists alone, far shorter than the posting lists sets read. */
export function withoutPresence(plan: TierPlan): TierPlan {
  return { base: plan.base, presence: [], folders: plan.folders.map((f) => ({ ...f, presence: [] })) }
}

export function hasPresence(plan: TierPlan): boolean {
  return plan.presence.length > 0 || plan.folders.some((f) => f.presence.length > 0)
}

/** Every chunk holding a set of `wanted` holds a set of `held` (each wanted set contains a held one). */
function setsCovered(held: readonly number[][], wanted: readonly number[][]): boolean {
  return wanted.every((set) => held.some((h) => h.every((i) => set.includes(i))))
}

const levelsCovered = (held: readonly number[], wanted: readonly number[]): boolean => wanted.every((level, i) => level <= held[i]!)

/** Whether every chunk `wanted` ranks, `held` ranked too (judged from the plans alone; false when unsure). */
export function planCovers(held: TierPlan, wanted: TierPlan): boolean {
  if (!levelsCovered(held.base, wanted.base) || !setsCovered(held.presence, wanted.presence)) return false
  return wanted.folders.every((folder) => {
    const own = held.folders.find((f) => f.prefix === folder.prefix)
    const levels = held.base.map((level, i) => Math.max(level, own?.levels[i] ?? 0))
    return levelsCovered(levels, folder.levels) && setsCovered([...held.presence, ...(own?.presence ?? [])], folder.presence)
  })
}

const deepest = (terms: readonly TierTerm[]): number[] => terms.map(() => TIER_LEVELS)

/**
 * Which chunks to rank so that the best `window` among them are the best of all, given the
 * lowest score `low` in the window of a pass that looked up tiers 1..scanned[i] of each term i.
 * Every chunk left out scores less than `low`:
 * - a chunk under no boost (factor ≤ 1) is outside tiers 1..level[i] of every term i, so it
 *   scores below leftOutBound; when even every tier cannot prove that, the chunks outside all
 *   tiers are ranked when they hold a set of words whose bounds reach `low` (presenceSets);
 * - a chunk under a boost with factor f is reached the same way at deeper levels, where
 *   f × that bound < low, or, when no levels are deep enough, through its folder entry and the
 *   sets of words that could reach low / f.
 * Null when that is every candidate or a boosted prefix is not a listed folder (then the
 * caller ranks every candidate).
 */
export function tierPlan(terms: readonly TierTerm[], boosts: readonly SourceBoost[], averageLength: number, low: number, scanned: readonly number[]): TierPlan | null {
  const proven = levelsBelow(terms, scanned, averageLength, low)
  const base = proven ?? deepest(terms)
  const presence = proven === null ? presenceSets(terms, base, averageLength, low) : []
  // When every word alone can reach the limit, the sets are every candidate, at a higher cost.
  if (presence.filter((set) => set.length === 1).length === terms.length) return null
  const folders: FolderPlan[] = []
  for (const boost of boosts) {
    if (boost.factor <= 1) continue
    const levels = levelsBelow(terms, base, averageLength, low / boost.factor)
    if (levels !== null && levels.every((level, i) => level === base[i])) continue
    if (!boost.prefix.endsWith('/') || !tierListable(boost.prefix.slice(0, -1))) return null
    const deeper = levels ?? deepest(terms)
    folders.push({
      prefix: boost.prefix,
      levels: deeper.some((level, i) => level !== base[i]) ? deeper : terms.map(() => 0),
      presence: levels === null ? presenceSets(terms, deeper, averageLength, low / boost.factor) : [],
    })
  }
  return { base, presence, folders }
}
