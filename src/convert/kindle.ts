/**
 * Kindle's `My Clippings.txt` (every highlight, note and bookmark made on the device, one after
 * another) → one page per book under `kindle/<title>`, its highlights in reading order as quotes
 * with their page and location, each note under the highlight it belongs to. Bookmarks carry no
 * text and are counted only. Kindle writes a highlight again when it is widened, so a highlight
 * whose text lies inside a later one of the same place is dropped.
 */
import { ConvertError } from './errors.js'
import { scrubSecrets } from './scrub.js'
import { slugWords } from './slug-words.js'
import { convertText } from './text.js'
import type { ConvertInput, ConvertLimits, ConvertResult, PageDraft } from './types.js'

const SEPARATOR = /^={10}\s*$/m
/** `- Your Highlight on page 12 | Location 170-172 | Added on …`: the kind, then `|`-separated places. */
const META = /^-\s*(?:Your\s+)?(\S+)\s+(?:on|at)?\s*(.*)$/i

interface Clipping {
  kind: 'highlight' | 'note' | 'bookmark'
  /** `page 12 · location 170-172`, as the device wrote it. */
  place: string
  /** First location number, to keep reading order and pair a note with its highlight. */
  location: number
  added: string | undefined
  text: string
}

interface Book {
  title: string
  author: string | undefined
  clippings: Clipping[]
}

function kindOf(word: string): Clipping['kind'] | undefined {
  const w = word.toLowerCase()
  if (w.startsWith('highlight')) return 'highlight'
  if (w.startsWith('note')) return 'note'
  if (w.startsWith('bookmark')) return 'bookmark'
  return undefined
}

/** `Title (Author)`: the last parenthesis names the author. */
function titleAndAuthor(line: string): { title: string; author: string | undefined } {
  const clean = line.replace(/^\ufeff/, '').trim()
  const open = clean.lastIndexOf(' (')
  if (open > 0 && clean.endsWith(')')) return { title: clean.slice(0, open).trim(), author: clean.slice(open + 2, -1).trim() || undefined }
  return { title: clean, author: undefined }
}

function parseClipping(block: string): { book: string; author: string | undefined; clipping: Clipping } | undefined {
  const lines = block.replace(/\r\n?/g, '\n').replace(/^\n+/, '').split('\n')
  if (lines.length < 2) return undefined
  const meta = META.exec(lines[1]!.trim())
  const kind = meta === null ? undefined : kindOf(meta[1]!)
  if (meta === null || kind === undefined) return undefined
  const parts = meta[2]!.split('|').map((p) => p.trim())
  const added = parts.find((p) => /^added on\b/i.test(p))?.replace(/^added on\s*/i, '')
  const places = parts.filter((p) => p !== '' && !/^added on\b/i.test(p)).map((p) => p.replace(/^(?:on|at)\s+/i, ''))
  const location = Number(/loc(?:ation|\.)?\s*(\d+)/i.exec(meta[2]!)?.[1] ?? /page\s+(\d+)/i.exec(meta[2]!)?.[1] ?? 0)
  const { title, author } = titleAndAuthor(lines[0]!)
  return { book: title, author, clipping: { kind, place: places.join(' · ').toLowerCase(), location, added, text: lines.slice(2).join('\n').trim() } }
}

/** Highlights made again at the same place keep only the last and widest. */
function withoutRepeats(clippings: Clipping[]): Clipping[] {
  const atPlace = new Map<number, Clipping[]>()
  for (const c of clippings) if (c.kind === 'highlight') atPlace.set(c.location, [...(atPlace.get(c.location) ?? []), c])
  return clippings.filter((c) => {
    if (c.kind !== 'highlight') return true
    const same = atPlace.get(c.location)!
    const i = same.indexOf(c)
    return !same.some((o, j) => j > i && o.text.includes(c.text))
  })
}

function bookPage(book: Book, counts: Record<string, number>): PageDraft {
  const kept = withoutRepeats(book.clippings.filter((c) => c.kind !== 'bookmark' && c.text !== ''))
  // Reading order; a note follows the highlight at its place.
  const ordered = kept
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.location - b.c.location || (a.c.kind === b.c.kind ? a.i - b.i : a.c.kind === 'highlight' ? -1 : 1))
    .map((x) => x.c)
  const sections = ordered.map((c) => {
    const scrubbed = scrubSecrets(c.text)
    counts.secrets_scrubbed = (counts.secrets_scrubbed ?? 0) + scrubbed.count
    if (c.kind === 'note') return `**Note** (${c.place}): ${scrubbed.text}`
    return `${scrubbed.text
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n')}\n\n— ${c.place}`
  })
  counts.highlights = (counts.highlights ?? 0) + ordered.filter((c) => c.kind === 'highlight').length
  counts.annotations = (counts.annotations ?? 0) + ordered.filter((c) => c.kind === 'note').length
  counts.bookmarks = (counts.bookmarks ?? 0) + book.clippings.filter((c) => c.kind === 'bookmark').length
  const frontmatter: Record<string, unknown> = { type: 'highlights', highlights: ordered.filter((c) => c.kind === 'highlight').length }
  if (book.author !== undefined) frontmatter.author = book.author
  const dates = book.clippings.map((c) => c.added).filter((d): d is string => d !== undefined)
  if (dates.length > 0) frontmatter.last_added = dates[dates.length - 1]
  const byline = book.author === undefined ? '' : `\n\nby ${book.author}`
  return { slugHint: `kindle/${slugWords(book.title, 80)}`, title: book.title, frontmatter, body: `# ${book.title}${byline}\n\n${sections.join('\n\n')}\n` }
}

export function convertKindle(input: ConvertInput, limits: ConvertLimits): ConvertResult<'kindle' | 'text'> {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)
  const books = new Map<string, Book>()
  for (const block of text.split(SEPARATOR)) {
    const parsed = parseClipping(block)
    if (parsed === undefined) continue
    const key = slugWords(parsed.book, 80)
    const book = books.get(key) ?? { title: parsed.book, author: parsed.author, clippings: [] }
    books.set(key, book)
    book.clippings.push(parsed.clipping)
  }
  if (books.size === 0) return convertText(input, limits)
  if (books.size > limits.maxDrafts) throw new ConvertError('convert_too_many_pages', `${input.name}: ${books.size} books exceed ${limits.maxDrafts}`)
  const counts: Record<string, number> = { books: books.size }
  const drafts = [...books.values()].map((book, index) => ({ ...bookPage(book, counts), position: { index } }))
  return { format: 'kindle', drafts, counts }
}
