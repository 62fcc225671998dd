/**
 * PDF → one page draft: text in reading order per page under `## Page N` headings, so each chunk
 * carries the page it came from. Title from the document's metadata, else the first heading-like
 * line, else the file name. Soft hyphens at line ends are joined and running headers and footers
 * (the same first or last line on most pages, page numbers aside) are dropped.
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
  height?: unknown
}

const MAX_PAGES = 5000

/** Text items grouped into lines (same baseline), top to bottom, each left to right. */
function toLines(items: readonly TextItemLike[]): Line[] {
  const rows = new Map<number, { x: number; text: string; height: number }[]>()
  for (const item of items) {
    if (typeof item.str !== 'string' || !Array.isArray(item.transform)) continue
    const [, , , d, x, y] = item.transform as number[]
    const key = Math.round((y ?? 0) / 2) * 2
    const row = rows.get(key) ?? []
    row.push({ x: x ?? 0, text: item.str, height: Math.abs(typeof item.height === 'number' && item.height > 0 ? item.height : (d ?? 0)) })
    rows.set(key, row)
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

export async function convertPdf(input: ConvertInput, _limits: ConvertLimits): Promise<ConvertResult> {
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
      pages.push(toLines((await page.getTextContent()).items as TextItemLike[]))
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
