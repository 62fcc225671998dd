import { makeSnippet } from './snippet.js'
import type { ResultRow } from './sql.js'
import { isStale } from './stale.js'
import type { SearchResult } from './types.js'

export interface RowContext {
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

function snippetOf(row: ResultRow, context: RowContext): string {
  const kept = snippets.get(row)
  if (kept && kept.chars === context.snippetChars && kept.terms.length === context.terms.length && kept.terms.every((term, i) => term === context.terms[i])) {
    return kept.snippet
  }
  const snippet = makeSnippet(row.chunk_text, context.terms, context.snippetChars)
  snippets.set(row, { terms: context.terms, chars: context.snippetChars, snippet })
  return snippet
}

export function toSearchResult(row: ResultRow, context: RowContext): SearchResult {
  const updatedAt = row.updated_at instanceof Date ? row.updated_at : new Date(row.updated_at)
  return {
    slug: row.slug,
    source_id: row.source_id,
    title: row.title,
    type: row.type,
    page_kind: row.page_kind,
    score: Number(row.score),
    snippet: snippetOf(row, context),
    chunk_id: Number(row.chunk_id),
    chunk_index: row.chunk_index,
    chunk_source: row.chunk_source,
    language: row.language,
    symbol_name: row.symbol_name,
    symbol_name_qualified: row.symbol_name_qualified,
    symbol_type: row.symbol_type,
    start_line: row.start_line,
    end_line: row.end_line,
    stale: isStale(updatedAt, context.now),
    updated_at: updatedAt.toISOString(),
  }
}
