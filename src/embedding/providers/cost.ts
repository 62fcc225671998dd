import { ValidationError } from '../../errors/index.js'
import { EMBEDDING_USD_PER_1K_TOKENS } from '../constants.js'

/** Estimated USD for embedding `tokens` tokens, as shown by the cost preview. */
export function estimateEmbeddingCostUsd(tokens: number): number {
  if (!Number.isFinite(tokens) || tokens < 0) {
    throw new ValidationError('embedding_cost_invalid_tokens', `Token count must be a finite number >= 0, got ${tokens}.`, {
      hint: 'Pass the sum of countTokens() over the texts to embed.',
    })
  }
  return (tokens / 1000) * EMBEDDING_USD_PER_1K_TOKENS
}
