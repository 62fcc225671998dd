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
