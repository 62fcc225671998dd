/** One ranked input of a fusion: best first. */
export interface RankedList<T> {
  name: string
  /** Relative trust in this list (default 1). */
  weight?: number
  /** Per-item trust in [0, 1] on top of the list's weight (default 1). */
  itemWeight?: (item: T) => number
  items: readonly T[]
}

export interface FusedItem<T> {
  key: string
  /** The item as ranked best by any list (the earlier list wins a tie). */
  item: T
  /** Normalized fused score in (0, 1]; 1 means first in every list. */
  score: number
  /** 1-based rank in each list that holds the item. */
  ranks: Record<string, number>
}

/** The usual constant of reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009). */
export const RRF_K = 60

/**
 * Weighted reciprocal rank fusion: score(d) = Σ_m w_m · v_m(d) / (k + rank_m(d)), over the lists
 * m that contain d, divided by Σ_m w_m / (k + 1) so that a document first in every list with
 * item weight 1 scores 1. w_m is the list's weight, v_m(d) ∈ [0, 1] an optional per-item weight.
 *
 * Ranks rather than raw scores are fused because the inputs live on unrelated scales (ts_rank is
 * unbounded and depends on document length, cosine similarity sits in a narrow band near the
 * top): any score normalisation would be tuned to one corpus. With k = 60 a document that both
 * lists hold outranks one that a single list puts first, which is what makes hybrid beat both
 * inputs. Ties fall to the better single rank, then to list order, then to the key, so the
 * result is deterministic.
 */
export function reciprocalRankFusion<T>(lists: readonly RankedList<T>[], keyOf: (item: T) => string, k = RRF_K): FusedItem<T>[] {
  const fused = new Map<string, FusedItem<T> & { best: number; bestList: number }>()
  let maxScore = 0
  lists.forEach((list, listIndex) => {
    const weight = list.weight ?? 1
    maxScore += weight / (k + 1)
    const seen = new Set<string>()
    list.items.forEach((item, index) => {
      const key = keyOf(item)
      // A list that repeats a key counts it at its best rank only.
      if (seen.has(key)) return
      seen.add(key)
      const rank = index + 1
      const itemWeight = Math.min(1, Math.max(0, list.itemWeight?.(item) ?? 1))
      const contribution = (weight * itemWeight) / (k + rank)
      const entry = fused.get(key)
      if (!entry) {
        fused.set(key, { key, item, score: contribution, ranks: { [list.name]: rank }, best: rank, bestList: listIndex })
        return
      }
      entry.score += contribution
      entry.ranks[list.name] = rank
      if (rank < entry.best) {
        entry.best = rank
        entry.bestList = listIndex
        entry.item = item
      }
    })
  })
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.bestList - b.bestList || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ key, item, score, ranks }) => ({ key, item, score: maxScore > 0 ? score / maxScore : 0, ranks }))
}

/** How hybrid search combines its keyword (BM25) and vector lists. */
export interface FusionSettings {
  /** `rrf`: weighted reciprocal rank fusion; `convex`: weighted sum of normalised scores. */
  method: 'rrf' | 'convex'
  /** Candidates read from each list. */
  depth: number
  /** Weight of the keyword list (the vector list weighs 1 in rrf, 1 − keywordWeight in convex). */
  keywordWeight: number
  /** rrf only: the rank constant. */
  k: number
  /**
   * convex only: keyword scores divided by the list's best (`max`), mapped onto [0, 1]
   * (`minmax`), or divided by the best score the query could reach (`bound`, see `keywordBound`).
   */
  norm?: Normalisation
  /** convex only: the same for vector scores (default: as `norm`); `raw` keeps cosine similarity. */
  vectorNorm?: Normalisation
  /** The query's highest possible keyword score, for `bound`. */
  keywordBound?: number
  /**
   * A keyword candidate's vote is multiplied by coverage^exponent, coverage being the share of
   * the query's lexemes its chunk holds (0: off).
   */
  coverageExponent?: number
}

export type Normalisation = 'max' | 'minmax' | 'bound' | 'raw'

interface Scored {
  score: number
  slug: string
  source_id: string
  /** Keyword candidates: share of the query's lexemes in the chunk. */
  coverage?: number
}

const coverageWeight = (item: Scored, exponent: number): number => (exponent > 0 ? (item.coverage ?? 1) ** exponent : 1)

const pageKeyOf = (r: Scored): string => `${r.source_id}\u0000${r.slug}`

function normalised<T extends Scored>(items: readonly T[], norm: Normalisation, bound: number): Map<string, number> {
  const scores = items.map((r) => Number(r.score))
  if (norm === 'raw') return new Map(items.map((r, i) => [pageKeyOf(r), scores[i]!]))
  if (norm === 'bound') return new Map(items.map((r, i) => [pageKeyOf(r), bound > 0 ? scores[i]! / bound : 0]))
  const max = Math.max(...scores)
  const min = norm === 'minmax' ? Math.min(...scores) : 0
  const span = max - min
  return new Map(items.map((r, i) => [pageKeyOf(r), span > 0 ? (scores[i]! - min) / span : 1]))
}

/**
 * Convex combination: score(d) = w · kw(d) + (1 − w) · vec(d), each list's scores normalised so
 * that its best is 1, a page absent from a list getting 0 there. Ties fall to the better single
 * rank, then the keyword list, then the key.
 */
function convexFusion<T extends Scored>(keyword: readonly T[], vector: readonly T[], w: number, settings: FusionSettings): FusedItem<T>[] {
  const kwRaw = normalised(keyword, settings.norm ?? 'max', settings.keywordBound ?? 0)
  const kw = new Map(keyword.map((item) => [pageKeyOf(item), (kwRaw.get(pageKeyOf(item)) ?? 0) * coverageWeight(item, settings.coverageExponent ?? 0)]))
  const vec = normalised(vector, settings.vectorNorm ?? settings.norm ?? 'max', 1)
  const fused = new Map<string, FusedItem<T> & { best: number; bestList: number }>()
  ;[keyword, vector].forEach((list, listIndex) => {
    list.forEach((item, index) => {
      const key = pageKeyOf(item)
      const entry = fused.get(key)
      const name = listIndex === 0 ? 'keyword' : 'vector'
      if (!entry) {
        const score = w * (kw.get(key) ?? 0) + (1 - w) * (vec.get(key) ?? 0)
        fused.set(key, { key, item, score, ranks: { [name]: index + 1 }, best: index + 1, bestList: listIndex })
        return
      }
      entry.ranks[name] = index + 1
      if (index + 1 < entry.best) Object.assign(entry, { best: index + 1, bestList: listIndex, item })
    })
  })
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.best - b.best || a.bestList - b.bestList || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ key, item, score, ranks }) => ({ key, item, score, ranks }))
}

/**
 * A page-level fusion of a keyword and a vector list, both best first, one entry per page; the
 * benchmarks compare it with the per-chunk fusion hybrid search uses (fuseChunks in src/search/hybrid.ts).
 */
export function fuseHybrid<T extends Scored>(keyword: readonly T[], vector: readonly T[], settings: FusionSettings): FusedItem<T>[] {
  const kw = keyword.slice(0, settings.depth)
  const vec = vector.slice(0, settings.depth)
  if (settings.method === 'convex') return convexFusion(kw, vec, settings.keywordWeight, settings)
  const exponent = settings.coverageExponent ?? 0
  return reciprocalRankFusion(
    [
      { name: 'keyword', weight: settings.keywordWeight, items: kw, itemWeight: (item) => coverageWeight(item, exponent) },
      { name: 'vector', items: vec },
    ],
    pageKeyOf,
    settings.k,
  )
}
