/**
 * Cheap token estimate used for chunk budgets and `tokenCount`.
 *
 * One token per four characters, rounded up: the same rule the spec names as the
 * tokenizer fallback. It needs no tokenizer load, is O(1) per string and is exact
 * enough for sizing chunks; embedding providers count real tokens where they must.
 */
const CHARS_PER_TOKEN = 4

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN)
}

export function charsToTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

export function tokensToChars(tokens: number): number {
  return tokens * CHARS_PER_TOKEN
}
