export interface BatchLimits {
  maxInputs: number
  /** Sum of token counts allowed in one batch; one input over it still gets a batch of its own. */
  maxTokens?: number
}

/**
 * Splits inputs, in order, into consecutive batches of start/end indices. `tokenCounts[i]` is the
 * token count of input i; omit it to batch by count alone.
 */
export function planBatches(inputCount: number, limits: BatchLimits, tokenCounts?: readonly number[]): Array<[start: number, end: number]> {
  const maxInputs = Math.max(1, Math.floor(limits.maxInputs))
  const maxTokens = limits.maxTokens ?? Number.POSITIVE_INFINITY
  const batches: Array<[number, number]> = []
  let start = 0
  let tokens = 0
  for (let i = 0; i < inputCount; i++) {
    const cost = tokenCounts?.[i] ?? 0
    const full = i - start >= maxInputs || (i > start && tokens + cost > maxTokens)
    if (full) {
      batches.push([start, i])
      start = i
      tokens = 0
    }
    tokens += cost
  }
  if (inputCount > start) batches.push([start, inputCount])
  return batches
}
