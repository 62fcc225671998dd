/** Binary-relevance retrieval metrics. */

/** nDCG@k: DCG of the ranking over the DCG of an ideal one (all relevant documents first). */
export function ndcgAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let dcg = 0
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2)
  })
  let ideal = 0
  for (let i = 0; i < Math.min(relevant.size, k); i++) ideal += 1 / Math.log2(i + 2)
  return ideal === 0 ? 0 : dcg / ideal
}

/** recall@k: the share of relevant documents found in the first k results. */
export function recallAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0
  const found = new Set(ranked.slice(0, k).filter((id) => relevant.has(id)))
  return found.size / relevant.size
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length
}

/** The value at quantile q (0–1) by the nearest-rank method. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil(q * sorted.length))
  return sorted[rank - 1]!
}

/** nDCG@k with graded relevance (gain = grade, as trec_eval and BEIR compute it). */
export function gradedNdcgAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  let dcg = 0
  const seen = new Set<string>()
  ranked.slice(0, k).forEach((id, i) => {
    if (seen.has(id)) return
    seen.add(id)
    dcg += (grades.get(id) ?? 0) / Math.log2(i + 2)
  })
  const ideal = [...grades.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0)
  return ideal === 0 ? 0 : dcg / ideal
}

/** MRR@k: the reciprocal rank of the first relevant document in the first k, 0 when none is. */
export function mrrAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  const at = ranked.slice(0, k).findIndex((id) => relevant.has(id))
  return at < 0 ? 0 : 1 / (at + 1)
}
