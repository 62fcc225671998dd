/**
 * .docx → one page draft: headings, lists, tables and links as markdown (mammoth reads the
 * document into semantic HTML, which goes through the same markdown writer as web pages).
 * Macros are never run (mammoth reads only the document XML), and mammoth reads the archive
 * through the bounded zip reader, never its own unzipper, so no member inflates past the limits.
 */
import mammoth from 'mammoth'
import { ConvertError } from './errors.js'
import { htmlToMarkdown } from './html.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { archiveFile, type ArchiveFile } from './zip-read.js'

/**
 * Word tables rarely mark a header row, and a markdown table needs one: the first row of each
 * table becomes its header, so tables come out as markdown rather than raw HTML.
 */
function headerRows(html: string): string {
  // A cell's paragraphs on one line: a markdown table cell cannot hold a line break.
  const flat = html.replace(/<td>([\s\S]*?)<\/td>/g, (_m, inner: string) => `<td>${inner.replace(/<\/p>\s*<p>/g, ' ').replace(/<\/?p>/g, '')}</td>`)
  return flat.replace(/<table>(\s*<tbody>)?\s*<tr>([\s\S]*?)<\/tr>/g, (_m, tbody: string | undefined, row: string) => {
    const cells = row
      .replace(/<td(\s[^>]*)?>/g, '<th>')
      .replace(/<\/td>/g, '</th>')
      .replace(/<\/?p>/g, '')
    return `<table><thead><tr>${cells}</tr></thead>${tbody ? '<tbody>' : ''}`
  })
}

/** mammoth also opens an archive it is handed as an object (its types name only paths and buffers). */
const convertToHtml = mammoth.convertToHtml as unknown as (input: { file: ArchiveFile }) => Promise<{ value: string }>

export async function convertDocx(input: ConvertInput, _limits: ConvertLimits): Promise<ConvertResult<'docx'>> {
  const file = archiveFile(input.bytes, input.name)
  let html: string
  try {
    html = (await convertToHtml({ file })).value
  } catch (err) {
    if (err instanceof ConvertError) throw err
    throw new ConvertError('convert_corrupt', `${input.name}: not a readable .docx (${err instanceof Error ? err.message : String(err)})`)
  }
  let body = htmlToMarkdown(headerRows(html))
  if (body === '') throw new ConvertError('convert_unsupported', `${input.name}: the document has no text`)
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.docx$/i, '')
  const lead = /^# (.+)\n+/.exec(body)
  const title = lead ? lead[1]!.trim() : fileTitle
  if (lead) body = body.slice(lead[0].length)
  return { format: 'docx', drafts: [{ slugHint: fileTitle.toLowerCase(), title, frontmatter: { type: 'document', source_format: 'docx' }, body: `# ${title}\n\n${body}\n` }], counts: {} }
}
