interface BatchLimits {
  maxInputs: number
  /** Sum of input costs (tokens, characters) allowed in one batch; one input over it still gets a batch of its own. */
  maxCost?: number
}

/**
 * Splits inputs, in order, into consecutive batches of start/end indices. `costs[i]` is the cost
 * of input i; omit it to batch by count alone.
 */
export function planBatches(inputCount: number, limits: BatchLimits, costs?: readonly number[]): Array<[start: number, end: number]> {
  const maxInputs = Math.max(1, Math.floor(limits.maxInputs))
  const maxCost = limits.maxCost ?? Number.POSITIVE_INFINITY
  const batches: Array<[number, number]> = []
  let start = 0
  let total = 0
  for (let i = 0; i < inputCount; i++) {
    const cost = costs?.[i] ?? 0
    const full = i - start >= maxInputs || (i > start && total + cost > maxCost)
    if (full) {
      batches.push([start, i])
      start = i
      total = 0
    }
    total += cost
  }
  if (inputCount > start) batches.push([start, inputCount])
  return batches
}
