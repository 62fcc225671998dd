/**
 * Converters: turn document files (PDF, web pages, mail, Word, EPUB books, notebooks, Evernote
 * exports, chat exports, agent transcripts) into page drafts.
 *
 * Each converter is pure — bytes, name and content type in, drafts out — with no network and no
 * content run; `convert` applies the size cap before any parsing, and `convertBounded` runs it in
 * a worker thread with a time and heap limit so a hostile file can be stopped. May import
 * src/errors, node built-ins and the parsing libraries.
 */
import { convertChat } from './chat.js'
import { converterFor } from './detect.js'
import { ConvertError } from './errors.js'
import { DEFAULT_LIMITS, type ConvertInput, type ConvertLimits, type ConvertResult } from './types.js'

export type { ConvertInput, ConvertLimits, ConvertResult, PageDraft, SourceFormat } from './types.js'
export { DEFAULT_LIMITS, SINGLE_PAGE_FORMATS } from './types.js'
export { ConvertError, type ConvertErrorCode } from './errors.js'
export { scrubSecrets, SECRET_PATTERNS } from './scrub.js'
export { detectChat } from './chat.js'
export { converterFor, isDocumentPath, isSinglePageDocumentName, type ConverterKind } from './detect.js'
export { hashBytes, renderDraft } from './render.js'
export { convertBounded } from './bounded.js'

/** Converts one file in this thread; entry paths use `convertBounded` instead. */
export async function convert(input: ConvertInput, limits: ConvertLimits = DEFAULT_LIMITS): Promise<ConvertResult> {
  if (input.bytes.byteLength > limits.maxBytes) {
    throw new ConvertError('convert_too_large', `${input.name}: ${input.bytes.byteLength} bytes exceed ${limits.maxBytes}`)
  }
  const kind = converterFor(input.name, input.contentType, input.bytes)
  if (kind === 'pdf') {
    const { convertPdf } = await import('./pdf.js')
    return convertPdf(input, limits)
  }
  if (kind === 'html') {
    const { convertHtml } = await import('./html.js')
    return convertHtml(input, limits)
  }
  if (kind === 'eml' || kind === 'mbox') {
    const { convertMail } = await import('./mail.js')
    return convertMail(input, limits, kind)
  }
  if (kind === 'docx') {
    const { convertDocx } = await import('./docx.js')
    return convertDocx(input, limits)
  }
  if (kind === 'notebook') {
    const { convertNotebook } = await import('./notebook.js')
    return convertNotebook(input, limits)
  }
  if (kind === 'epub') {
    const { convertEpub } = await import('./epub.js')
    return convertEpub(input, limits)
  }
  if (kind === 'enex') {
    const { convertEnex } = await import('./enex.js')
    return convertEnex(input, limits)
  }
  if (kind === 'text') {
    const { convertText } = await import('./text.js')
    return convertText(input, limits)
  }
  return convertChat(input, limits)
}
