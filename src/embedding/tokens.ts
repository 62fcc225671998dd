/**
 * cl100k_base token counts, the tokenizer of the OpenAI embedding models: one lazily loaded
 * encoder for the whole process. A module of its own so that recall, which an agent's hook runs
 * on every prompt, counts tokens without loading the embedding providers behind the index.
 */
import { loadCl100kEncoder, TokenCounter } from './providers/tokenizer.js'

export const tokenCounter = new TokenCounter(loadCl100kEncoder)

/** The cl100k_base count of `text`; the tokenizer loads on the first call, and if it cannot, Math.ceil(length / 4). */
export function countTokens(text: string): number {
  return tokenCounter.count(text)
}

/** The longest prefix of `text` within `maxTokens` cl100k tokens (default 8191). */
export function capToTokenLimit(text: string, maxTokens?: number): string {
  return tokenCounter.cap(text, maxTokens)
}
