/** Quotes a lexeme for tsquery input: quotes and backslashes are doubled inside single quotes. */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/** Beyond this many lexemes, `two` would OR together too many pairs; it degrades to `any`. */
export const MAX_PAIR_LEXEMES = 16

/**
 * A tsquery over already-normalized lexemes. `any`: at least one. `two`: at least two, written
 * as the OR of every pair (`(a & b) | (a & c) | (b & c)`), or all of them when there are two or
 * fewer. '' when there are no lexemes.
 */
export function lexemeTsquery(lexemes: readonly string[], match: 'any' | 'two'): string {
  const quoted = [...new Set(lexemes)].filter((l) => l !== '').map(quoteLexeme)
  if (quoted.length === 0) return ''
  if (match === 'any' || quoted.length > MAX_PAIR_LEXEMES) return quoted.join(' | ')
  if (quoted.length <= 2) return quoted.join(' & ')
  const pairs: string[] = []
  for (let i = 0; i < quoted.length; i++) {
    for (let j = i + 1; j < quoted.length; j++) pairs.push(`(${quoted[i]} & ${quoted[j]})`)
  }
  return pairs.join(' | ')
}
