/** PDFs written by a PDF library for the converter tests: several pages, metadata, broken ones. */
import { PDFDocument, StandardFonts } from 'pdf-lib'

export interface PdfPage {
  heading?: string
  lines: string[]
}

export async function makePdf(pages: PdfPage[], meta: { title?: string; author?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  if (meta.title !== undefined) doc.setTitle(meta.title)
  if (meta.author !== undefined) doc.setAuthor(meta.author)
  doc.setCreationDate(new Date('2024-03-01T00:00:00Z'))
  for (const [i, p] of pages.entries()) {
    const page = doc.addPage([600, 800])
    page.drawText('ACME Quarterly Report', { x: 50, y: 770, size: 9, font })
    let y = 720
    if (p.heading !== undefined) {
      page.drawText(p.heading, { x: 50, y, size: 20, font })
      y -= 40
    }
    for (const line of p.lines) {
      page.drawText(line, { x: 50, y, size: 11, font })
      y -= 14
    }
    page.drawText(`Page ${i + 1} of ${pages.length}`, { x: 260, y: 30, size: 9, font })
  }
  return doc.save({ useObjectStreams: false })
}

/** A PDF with one empty page: no text layer, as a scanned image would have. */
export async function makeImageOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([600, 800])
  page.drawRectangle({ x: 50, y: 50, width: 200, height: 200 })
  return doc.save({ useObjectStreams: false })
}

/**
 * A PDF whose trailer names the standard security handler with owner and user keys that no empty
 * password opens, so a reader must ask for a password.
 */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const text = Buffer.from(await makePdf([{ lines: ['secret'] }])).toString('latin1')
  const hex = (n: number): string => '<' + 'ab'.repeat(n) + '>'
  const encrypt = `/Encrypt << /Filter /Standard /V 1 /R 2 /Length 40 /O ${hex(32)} /U ${hex(32)} /P -44 >> /ID [${hex(16)} ${hex(16)}]`
  return new Uint8Array(
    Buffer.from(
      text.replace(/trailer\s*<</, (m) => `${m}\n${encrypt}\n`),
      'latin1',
    ),
  )
}

/** A page laid out as a paper: a title and an abstract across the page, two columns of text, a wide figure caption between. */
export interface PaperPage {
  across: { top: string[]; middle: string }
  left: { upper: string[]; lower: string[] }
  right: { upper: string[]; lower: string[] }
}

export async function makeTwoColumnPdf(p: PaperPage): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([600, 800])
  let y = 760
  for (const line of p.across.top) {
    page.drawText(line, { x: 60, y, size: 12, font })
    y -= 18
  }
  const column = (lines: string[], x: number, from: number): number => {
    let at = from
    for (const line of lines) {
      page.drawText(line, { x, y: at, size: 10, font })
      at -= 13
    }
    return at
  }
  const top = y - 10
  const below = Math.min(column(p.left.upper, 50, top), column(p.right.upper, 320, top))
  page.drawText(p.across.middle, { x: 60, y: below - 12, size: 10, font })
  column(p.left.lower, 50, below - 40)
  column(p.right.lower, 320, below - 40)
  return doc.save({ useObjectStreams: false })
}

/** A page holding a table of two short columns far apart: cells aligned as a column's lines are. */
export async function makeTablePdf(rows: Array<[string, string]>): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([600, 800])
  rows.forEach(([left, right], i) => {
    page.drawText(left, { x: 50, y: 720 - i * 14, size: 11, font })
    page.drawText(right, { x: 330, y: 720 - i * 14, size: 11, font })
  })
  return doc.save({ useObjectStreams: false })
}
