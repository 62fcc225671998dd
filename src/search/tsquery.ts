/** Quotes a lexeme for tsquery input: quotes and backslashes are doubled inside single quotes. */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/** Beyond this many lexemes, `two` would OR together too many pairs; it degrades to `any`. */
export const MAX_PAIR_LEXEMES = 16

/**
 * A tsquery over already-normalized lexemes and prefixes (`'p':*`). `any`: at least one. `all`:
 * every one. `two`: at least two, written
 * as the OR of every pair (`(a & b) | (a & c) | (b & c)`), or all of them when there are two or
 * fewer. '' when there are no lexemes.
 */
export function lexemeTsquery(lexemes: readonly string[], match: 'any' | 'two' | 'all', prefixes: readonly string[] = []): string {
  const quoted = [...new Set(lexemes)].filter((l) => l !== '').map(quoteLexeme)
  for (const prefix of new Set(prefixes)) if (prefix !== '') quoted.push(`${quoteLexeme(prefix)}:*`)
  if (quoted.length === 0) return ''
  if (match === 'all') return quoted.join(' & ')
  if (match === 'any' || quoted.length > MAX_PAIR_LEXEMES) return quoted.join(' | ')
  if (quoted.length <= 2) return quoted.join(' & ')
  const pairs: string[] = []
  for (let i = 0; i < quoted.length; i++) {
    for (let j = i + 1; j < quoted.length; j++) pairs.push(`(${quoted[i]} & ${quoted[j]})`)
  }
  return pairs.join(' | ')
}

/**
 * A keyword query in web-search syntax: plain words (any may match), `word*` prefixes,
 * `"quoted phrases"` (each must match), `-word` / `-"phrase"` exclusions (none may match).
 * A token starting with two dashes (`--no-color`) is words, not an exclusion.
 * `or` between words is accepted and changes nothing, since any word may match already.
 */
interface ParsedQuery {
  words: string[]
  prefixes: string[]
  phrases: string[]
  excluded: string[]
}

const TOKEN = /(-?)"([^"]*)"?|(\S+)/gu
const WORD = /[\p{L}\p{N}]+/gu

/** Splits a query into its parts. Phrases and exclusions keep their raw text for Postgres' own parser. */
export function parseQuery(query: string): ParsedQuery {
  const parsed: ParsedQuery = { words: [], prefixes: [], phrases: [], excluded: [] }
  for (const match of query.matchAll(TOKEN)) {
    const [, minus, quoted, bare] = match
    if (quoted !== undefined) {
      if ((quoted.match(WORD) ?? []).length === 0) continue
      ;(minus === '-' ? parsed.excluded : parsed.phrases).push(quoted.trim())
      continue
    }
    const token = bare ?? ''
    // `-word` excludes; `--flag` is a command-line option people search for, so it stays words.
    if (token.startsWith('-') && !token.startsWith('--') && token.length > 1) {
      if ((token.match(WORD) ?? []).length > 0) parsed.excluded.push(token.slice(1))
      continue
    }
    const words = token.match(WORD) ?? []
    if (words.length === 0 || (words.length === 1 && words[0]!.toLowerCase() === 'or')) continue
    if (token.endsWith('*') && words.length === 1) parsed.prefixes.push(words[0]!.toLowerCase())
    else parsed.words.push(token)
  }
  return parsed
}
