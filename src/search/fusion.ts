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
