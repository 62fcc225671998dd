/**
 * PDF → one page draft: text in reading order per page under `## Page N` headings, so each chunk
 * carries the page it came from. Title from the document's metadata, else the first heading-like
 * line, else the file name. Soft hyphens at line ends are joined and running headers and footers
 * (the same first or last line on most pages, page numbers aside) are dropped. A page set in two
 * columns, as most papers are, is read one column after the other.
 */
import { ConvertError } from './errors.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

interface Line {
  y: number
  height: number
  text: string
}

interface TextItemLike {
  str?: unknown
  transform?: unknown
  width?: unknown
  height?: unknown
}

/** A text item where it sits on the page: from `x` to `right` on the baseline `y`. */
interface Placed {
  x: number
  right: number
  y: number
  text: string
  height: number
}

const MAX_PAGES = 5000

const finite = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

function placedItems(items: readonly TextItemLike[]): Placed[] {
  const placed: Placed[] = []
  for (const item of items) {
    if (typeof item.str !== 'string' || !Array.isArray(item.transform)) continue
    const [, , , d, x, y] = (item.transform as unknown[]).map(finite)
    const height = Math.abs(finite(item.height) > 0 ? finite(item.height) : (d ?? 0))
    placed.push({ x: x ?? 0, right: (x ?? 0) + Math.max(0, finite(item.width)), y: y ?? 0, text: item.str, height })
  }
  return placed
}

/** Text items grouped into lines (same baseline), top to bottom, each left to right. */
function toLines(items: readonly Placed[]): Line[] {
  const rows = new Map<number, Placed[]>()
  for (const item of items) {
    const row = rows.get(rowKey(item)) ?? []
    row.push(item)
    rows.set(rowKey(item), row)
  }
  return [...rows.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([y, parts]) => {
      parts.sort((a, b) => a.x - b.x)
      return {
        y,
        height: Math.max(...parts.map((p) => p.height)),
        text: parts
          .map((p) => p.text)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      }
    })
    .filter((l) => l.text !== '')
}

const normalise = (s: string): string => s.replace(/\d+/g, '#').toLowerCase()

/** The row an item sits in: its baseline, to the nearest two points. */
const rowKey = (i: Placed): number => Math.round(i.y / 2) * 2
/** The middle of some numbers. */
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

/** Below this many lines a side of the page is not a column (a date, a page number, a figure label). */
const MIN_COLUMN_LINES = 5
/** Lines may cross a gutter (a title, an abstract, a wide figure's caption), but not most of them. */
const MAX_CROSSING_SHARE = 0.35
/** A column's rows start at its left edge, bar headings, list items and indented first lines. */
const MIN_ALIGNED_SHARE = 0.6
/** Columns stand further apart than words (points): a space between words or hex bytes is a few. */
const MIN_GUTTER = 9
/** How much of a column's width a row of its text spans, and how many of its rows do (headings are short). */
const MIN_FILLED_SHARE = 0.6
const MIN_FILLED_ROWS = 0.4

/**
 * The x where a page of two columns divides, or null for a page of one: the point in the middle
 * of the page that the fewest lines cross, when enough lines sit wholly on each side of it.
 * Counted in whole points with a difference array, so a page costs its items plus its width.
 */
function gutter(items: readonly Placed[], left: number, width: number): number | null {
  const text = items.filter((i) => i.text.trim() !== '' && i.right > i.x)
  if (width < 100 || text.length < 2 * MIN_COLUMN_LINES) return null
  const lineCount = new Set(text.map(rowKey)).size
  const bins = Math.ceil(width)
  const diff = new Int32Array(bins + 2)
  for (const i of text) {
    const from = Math.max(0, Math.floor(i.x - left) + 1)
    const to = Math.min(bins, Math.ceil(i.right - left) - 1)
    if (to < from) continue
    diff[from]! += 1
    diff[to + 1]! -= 1
  }
  let best = -1
  let bestCrossing = Infinity
  let crossing = 0
  for (let b = 0; b <= bins; b++) {
    crossing += diff[b]!
    if (b < width * 0.3 || b > width * 0.7) continue
    // Of equally good points, the middle of the page.
    if (crossing < bestCrossing || (crossing === bestCrossing && Math.abs(b - width / 2) < Math.abs(best - width / 2))) {
      best = b
      bestCrossing = crossing
    }
  }
  if (best < 0) return null
  const at = left + best
  const sideLines = (keep: (i: Placed) => boolean): number => new Set(text.filter(keep).map(rowKey)).size
  const crossingLines = sideLines((i) => i.x < at && i.right > at)
  if (crossingLines > lineCount * MAX_CROSSING_SHARE) return null
  if (sideLines((i) => i.right <= at) < MIN_COLUMN_LINES || sideLines((i) => i.x >= at) < MIN_COLUMN_LINES) return null
  const leftSide = text.filter((i) => i.right <= at)
  const rightSide = text.filter((i) => i.x >= at)
  if (!alignedColumn(rightSide) || gutterWidth(text, at) < MIN_GUTTER) return null
  const leftEdge = leftSide.reduce((min, i) => Math.min(min, i.x), Infinity)
  const rightEdge = rightSide.reduce((max, i) => Math.max(max, i.right), -Infinity)
  return filledColumn(leftSide, at - leftEdge) && filledColumn(rightSide, rightEdge - at) ? at : null
}

/**
 * Whether enough rows of a side run across most of the room between the page's edge of the text
 * and the gutter, as lines of text in a column do; the cells of a table are short, and a table
 * read column by column would lose its rows.
 */
function filledColumn(side: readonly Placed[], width: number): boolean {
  const rows = new Map<number, { from: number; to: number }>()
  for (const i of side) {
    const row = rows.get(rowKey(i))
    rows.set(rowKey(i), row === undefined ? { from: i.x, to: i.right } : { from: Math.min(row.from, i.x), to: Math.max(row.to, i.right) })
  }
  const spans = [...rows.values()]
  const filled = spans.filter((r) => r.to - r.from >= width * MIN_FILLED_SHARE).length
  return width > 0 && filled >= spans.length * MIN_FILLED_ROWS
}

/** The usual space between the end of a row's left part and the start of its right part. */
function gutterWidth(items: readonly Placed[], at: number): number {
  const ends = new Map<number, number>()
  const starts = new Map<number, number>()
  for (const i of items) {
    if (i.right <= at) ends.set(rowKey(i), Math.max(ends.get(rowKey(i)) ?? -Infinity, i.right))
    else if (i.x >= at) starts.set(rowKey(i), Math.min(starts.get(rowKey(i)) ?? Infinity, i.x))
  }
  const widths = [...starts.entries()].filter(([row]) => ends.has(row)).map(([row, x]) => x - ends.get(row)!)
  return widths.length === 0 ? Infinity : median(widths)
}

/**
 * Whether the rows right of a gutter start where a column starts: most at one x. Words of code
 * or a table set one item each also leave a point few items cross, but their rows start anywhere.
 */
function alignedColumn(right: readonly Placed[]): boolean {
  const starts = new Map<number, number>()
  for (const i of right) starts.set(rowKey(i), Math.min(starts.get(rowKey(i)) ?? Infinity, i.x))
  const at = new Map<number, number>()
  for (const x of starts.values()) at.set(Math.round(x / 3), (at.get(Math.round(x / 3)) ?? 0) + 1)
  const most = Math.max(...[...at.entries()].map(([k, n]) => n + (at.get(k - 1) ?? 0) + (at.get(k + 1) ?? 0)))
  return most >= starts.size * MIN_ALIGNED_SHARE
}

/**
 * The first and last rows of a page in two columns when they stand apart from the text (a
 * running head, a page number): read whole and where they sit, not as a line of one column.
 */
function headAndFoot(items: readonly Placed[]): Set<number> {
  const rows = [...new Set(items.filter((i) => i.text.trim() !== '').map(rowKey))].sort((a, b) => b - a)
  const whole = new Set<number>()
  if (rows.length < 3) return whole
  const gaps = rows.slice(1).map((y, k) => rows[k]! - y)
  const usual = median(gaps)
  if (gaps[0]! > usual * 1.5) whole.add(rows[0]!)
  if (gaps[gaps.length - 1]! > usual * 1.5) whole.add(rows[rows.length - 1]!)
  return whole
}

/**
 * A page's lines in reading order. On a page of two columns, the left column is read before the
 * right one, and a line across both (a title, an abstract, a wide figure) is read where it
 * sits: the columns above it first, then it.
 */
function readingOrder(items: readonly Placed[], view: readonly number[]): Line[] {
  const left = finite(view[0])
  const at = gutter(items, left, finite(view[2]) - left)
  if (at === null) return toLines(items)
  const whole = headAndFoot(items)
  const isAcross = (i: Placed): boolean => (i.x < at && i.right > at) || whole.has(rowKey(i))
  const leftLines = toLines(items.filter((i) => !isAcross(i) && i.right <= at))
  const rightLines = toLines(items.filter((i) => !isAcross(i) && i.x >= at))
  const across = toLines(items.filter(isAcross))
  const out: Line[] = []
  let l = 0
  let r = 0
  for (const line of across) {
    while (l < leftLines.length && leftLines[l]!.y > line.y) out.push(leftLines[l++]!)
    while (r < rightLines.length && rightLines[r]!.y > line.y) out.push(rightLines[r++]!)
    out.push(line)
  }
  return [...out, ...leftLines.slice(l), ...rightLines.slice(r)]
}

/** First or last lines that repeat on at least half the pages (two or more): running heads. */
function runningLines(pages: Line[][]): Set<string> {
  const seen = new Map<string, number>()
  for (const lines of pages) {
    const ends = new Set([lines[0], lines[lines.length - 1]].filter((l): l is Line => l !== undefined).map((l) => normalise(l.text)))
    for (const key of ends) seen.set(key, (seen.get(key) ?? 0) + 1)
  }
  const repeated = new Set<string>()
  if (pages.length < 2) return repeated
  for (const [key, n] of seen) if (n >= Math.max(2, pages.length / 2)) repeated.add(key)
  return repeated
}

/** Lines as paragraphs: a hyphen at a line's end joins the next word; a wide gap starts a paragraph. */
function pageText(lines: Line[]): string {
  let out = ''
  for (const [i, line] of lines.entries()) {
    if (i === 0) {
      out = line.text
      continue
    }
    const prev = lines[i - 1]!
    const gap = prev.y - line.y
    if (/[a-z]-$/.test(out) && /^[a-z]/.test(line.text)) out = out.slice(0, -1) + line.text
    else out += (gap > Math.max(prev.height, line.height) * 1.8 ? '\n\n' : '\n') + line.text
  }
  return out.trim()
}

/** A short line set larger than the page's body text, or failing that the first short line. */
function headingLine(lines: Line[]): string | undefined {
  if (lines.length === 0) return undefined
  const heights = lines.map((l) => l.height).sort((a, b) => a - b)
  const median = heights[Math.floor(heights.length / 2)]!
  const short = (l: Line): boolean => l.text.length >= 3 && l.text.length <= 120
  return (lines.find((l) => short(l) && l.height > median * 1.15) ?? lines.find((l) => short(l) && !/[.,;]$/.test(l.text)))?.text
}

function failure(input: ConvertInput, err: unknown): ConvertError {
  const name = (err as { name?: unknown }).name
  if (name === 'PasswordException') return new ConvertError('pdf_encrypted', `${input.name}: the PDF is encrypted`, 'Save an unencrypted copy and import that.')
  return new ConvertError('pdf_corrupt', `${input.name}: not a readable PDF (${err instanceof Error ? err.message : String(err)})`)
}

function pdfDate(v: unknown): string | undefined {
  const m = typeof v === 'string' ? /^D:(\d{4})(\d{2})?(\d{2})?/.exec(v) : null
  return m ? `${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}` : undefined
}

export async function convertPdf(input: ConvertInput, _limits: ConvertLimits): Promise<ConvertResult<'pdf'>> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const task = pdfjs.getDocument({ data: new Uint8Array(input.bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, enableXfa: false, verbosity: 0 })
  let doc: Awaited<typeof task.promise>
  try {
    doc = await task.promise
  } catch (err) {
    throw failure(input, err)
  }
  try {
    if (doc.numPages > MAX_PAGES) throw new ConvertError('convert_too_many_pages', `${input.name}: ${doc.numPages} pages exceed ${MAX_PAGES}`)
    const pages: Line[][] = []
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n).catch((err: unknown) => Promise.reject(failure(input, err)))
      pages.push(readingOrder(placedItems((await page.getTextContent()).items as TextItemLike[]), page.view))
      page.cleanup()
    }
    const running = runningLines(pages)
    const cleaned = pages.map((lines) => lines.filter((l, i) => !((i === 0 || i === lines.length - 1) && running.has(normalise(l.text)))))
    const texts = cleaned.map(pageText)
    if (texts.every((t) => t === '')) throw new ConvertError('pdf_no_text', `${input.name}: no text layer (a scanned or image-only PDF)`, 'Run it through OCR first.')
    const meta = (await doc.getMetadata().catch(() => ({ info: {} }))).info as Record<string, unknown>
    const metaTitle = typeof meta.Title === 'string' ? meta.Title.trim() : ''
    const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.pdf$/i, '')
    const title = metaTitle || headingLine(cleaned.find((l) => l.length > 0) ?? []) || fileTitle
    const frontmatter: Record<string, unknown> = { type: 'document', source_format: 'pdf', pages: doc.numPages }
    if (typeof meta.Author === 'string' && meta.Author.trim() !== '') frontmatter.author = meta.Author.trim()
    const created = pdfDate(meta.CreationDate)
    if (created !== undefined) frontmatter.created = created
    const sections = texts.map((t, i) => (t === '' ? '' : `## Page ${i + 1}\n\n${t}`)).filter((s) => s !== '')
    const body = `# ${title}\n\n${sections.join('\n\n')}\n`
    return { format: 'pdf', drafts: [{ slugHint: fileTitle.toLowerCase(), title, frontmatter, body, position: { page: 1 } }], counts: { pdf_pages: doc.numPages } }
  } finally {
    await doc.destroy()
  }
}
