import type { ResultRow } from './sql.js'
import { plainSnippetText, STEM_PREFIX } from './snippet-text.js'
import type { SearchResult } from './types.js'

/** What a result row is shaped with: the query's terms, the snippet's length and the clock for `stale`. */
interface RowOptions {
  terms: readonly string[]
  snippetChars: number
  now: Date
}

/**
 * The last snippet made from each row object, with what it was made for: kept result rows are
 * the same objects on every repeat of a search, and collapsing a chunk's whitespace again for
 * each of them was a visible share of answering one.
 */
const snippets = new WeakMap<ResultRow, { terms: readonly string[]; chars: number; snippet: string }>()

function snippetOf(row: ResultRow, options: RowOptions): string {
  const kept = snippets.get(row)
  if (kept && kept.chars === options.snippetChars && kept.terms.length === options.terms.length && kept.terms.every((term, i) => term === options.terms[i])) {
    return kept.snippet
  }
  const prose = row.page_kind === 'markdown' && row.chunk_source !== 'fenced_code'
  const snippet = makeSnippet(prose ? plainSnippetText(row.chunk_text) : row.chunk_text, options.terms, options.snippetChars)
  snippets.set(row, { terms: options.terms, chars: options.snippetChars, snippet })
  return snippet
}

export function toSearchResult(row: ResultRow, options: RowOptions): SearchResult {
  const updatedAt = row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at)
  return {
    slug: row.slug,
    source_id: row.source_id,
    title: row.title,
    type: row.type,
    page_kind: row.page_kind,
    score: Number(row.score),
    snippet: snippetOf(row, options),
    chunk_id: Number(row.chunk_id),
    chunk_index: row.chunk_index,
    chunk_source: row.chunk_source,
    language: row.language,
    symbol_name: row.symbol_name,
    symbol_name_qualified: row.symbol_name_qualified,
    symbol_type: row.symbol_type,
    start_line: row.start_line,
    end_line: row.end_line,
    stale: isStale(updatedAt, options.now),
    updated_at: updatedAt.toISOString(),
  }
}

/**
 * The words of a query as full-text search sees them: runs of letters and digits, lower-cased,
 * de-duplicated, in order. Operators and punctuation are dropped, so the result is always safe
 * to join into a tsquery.
 */
export function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words)]
}

/**
 * One line of the text around the query's first match: heading markers dropped, whitespace collapsed, at most `maxChars` characters, starting a little
 * before the first place a query term (or its first four letters, a cheap stand-in for the
 * stemmer) occurs; the page's start when none does. Cuts are marked with an ellipsis.
 */
export function makeSnippet(text: string, terms: readonly string[], maxChars: number): string {
  // Heading markers carry no meaning on one line.
  const flat = text
    .replace(/^#{1,6}[ \t]+/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
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

/**
 * A search result is `stale` when its page was last written more than STALE_AFTER_DAYS before
 * the search ran (pages.updated_at, which every content change moves). It warns a reader or an
 * agent that the text may no longer be true; it does not affect ranking.
 */
export const STALE_AFTER_DAYS = 180

const DAY_MS = 24 * 60 * 60 * 1000

export function isStale(updatedAt: Date, now: Date): boolean {
  return now.getTime() - updatedAt.getTime() > STALE_AFTER_DAYS * DAY_MS
}
