/**
 * The words of a query as full-text search sees them: runs of letters and digits, lower-cased,
 * de-duplicated, in order. Operators and punctuation are dropped, so the result is always safe
 * to join into a tsquery.
 */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)]
}

const STEM_PREFIX = 4

/**
 * One line of context: heading markers dropped, whitespace collapsed, at most `maxChars` characters, starting a little
 * before the first place a query term (or its first four letters, a cheap stand-in for the
 * stemmer) occurs; the page's start when none does. Cuts are marked with an ellipsis.
 */
export function makeSnippet(text: string, terms: readonly string[], maxChars: number): string {
  // Heading markers carry no meaning on one line.
  const flat = text.replace(/^#{1,6}[ \t]+/gm, '').replace(/\s+/g, ' ').trim()
  if (flat.length <= maxChars) return flat
  const lower = flat.toLowerCase()
  let hit = -1
  for (const term of terms) {
    const probe = term.length > STEM_PREFIX ? term.slice(0, STEM_PREFIX) : term
    const at = lower.indexOf(probe)
    if (at >= 0 && (hit < 0 || at < hit)) hit = at
  }
  let start = hit < 0 ? 0 : Math.max(0, Math.min(hit - Math.floor(maxChars / 4), flat.length - maxChars + 1))
  // Begin at a word boundary when the cut lands inside a word.
  if (start > 0) {
    const space = flat.indexOf(' ', start)
    if (space >= 0 && space < hit) start = space + 1
  }
  const end = Math.min(flat.length, start + maxChars - (start > 0 ? 1 : 0) - 1)
  const body = flat.slice(start, end).trimEnd()
  return `${start > 0 ? '…' : ''}${body}${end < flat.length ? '…' : ''}`
}
