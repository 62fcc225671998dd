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
