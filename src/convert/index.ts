/**
 * Converters: turn document files (PDF, web pages, mail, Word, EPUB books, notebooks, Evernote
 * exports, AI chat exports, messenger chats, agent transcripts) into page drafts.
 *
 * Each converter is pure — bytes, name and content type in, drafts out — with no network and no
 * content run; `convert` applies the size cap before any parsing, and `convertBounded` runs it in
 * a worker thread with a time and heap limit so a hostile file can be stopped. May import
 * src/errors, node built-ins and the parsing libraries.
 */
import { convertChat } from './chat.js'
import { converterFor, folderConverterFor, type ConverterKind } from './detect.js'
import { ConvertError } from './errors.js'
import { DEFAULT_LIMITS, type ConvertInput, type ConvertLimits, type ConvertResult } from './types.js'

export type { ConvertInput, ConvertLimits, ConvertResult, PageDraft, SourceFormat } from './types.js'
export { DEFAULT_LIMITS, SINGLE_PAGE_FORMATS } from './types.js'
export { ConvertError, type ConvertErrorCode } from './errors.js'
export { scrubSecrets, SECRET_PATTERNS } from './scrub.js'
export { detectChat } from './chat.js'
export { converterFor, exportFolders, SNIFF_BYTES, isDocumentPath, isSinglePageDocumentName, type ConverterKind, type ExportFolder, type ExportFolders } from './detect.js'
export { hashBytes, hashFiles, renderDraft } from './render.js'
export { convertBounded } from './bounded.js'
export { partBytes, splitExport, splitKindFor, type ExportPart, type SplitKind, type SplitOptions } from './split.js'

type Converter = (input: ConvertInput, limits: ConvertLimits) => ConvertResult | Promise<ConvertResult>

/**
 * Each converter by the kind it takes, loaded when a file of that kind comes: a conversion pays
 * for its own parser only (pdf.js, mammoth and the mail parser are large).
 */
const CONVERTERS: Record<ConverterKind, () => Promise<Converter>> = {
  pdf: async () => (await import('./pdf.js')).convertPdf,
  html: async () => (await import('./html.js')).convertHtml,
  eml: async () => {
    const { convertMail } = await import('./mail.js')
    return (input, limits) => convertMail(input, limits, 'eml')
  },
  mbox: async () => {
    const { convertMail } = await import('./mail.js')
    return (input, limits) => convertMail(input, limits, 'mbox')
  },
  docx: async () => (await import('./docx.js')).convertDocx,
  notebook: async () => (await import('./notebook.js')).convertNotebook,
  epub: async () => (await import('./epub.js')).convertEpub,
  enex: async () => (await import('./enex.js')).convertEnex,
  text: async () => (await import('./text.js')).convertText,
  whatsapp: async () => (await import('./whatsapp.js')).convertWhatsapp,
  telegram: async () => (await import('./telegram.js')).convertTelegram,
  'telegram-html': async () => (await import('./telegram-html.js')).convertTelegramHtml,
  discord: async () => (await import('./discord.js')).convertDiscord,
  slack: async () => (await import('./slack.js')).convertSlack,
  kindle: async () => (await import('./kindle.js')).convertKindle,
  opml: async () => (await import('./opml.js')).convertOpml,
  pptx: async () => (await import('./pptx.js')).convertPptx,
  odt: async () => (await import('./odt.js')).convertOdt,
  keep: async () => (await import('./keep.js')).convertKeep,
  canvas: async () => (await import('./canvas.js')).convertCanvas,
  bookmarks: async () => (await import('./bookmarks.js')).convertBookmarks,
  roam: async () => (await import('./roam.js')).convertRoam,
  dayone: async () => (await import('./dayone.js')).convertDayOne,
  chat: async () => convertChat,
}

/** Converts one file in this thread; entry paths use `convertBounded` instead. */
export async function convert(input: ConvertInput, limits: ConvertLimits = DEFAULT_LIMITS): Promise<ConvertResult> {
  const size = input.bytes.byteLength + Object.values(input.files ?? {}).reduce((sum, f) => sum + f.byteLength, 0)
  if (size > limits.maxBytes) throw new ConvertError('convert_too_large', `${input.name}: ${size} bytes exceed ${limits.maxBytes}`)
  if (input.files !== undefined) {
    const kind = folderConverterFor(input.files)
    if (kind === null) throw new ConvertError('convert_unsupported', `${input.name}: not an export this brain reads`)
    return (await CONVERTERS[kind]())(input, limits)
  }
  const converter = await CONVERTERS[converterFor(input.name, input.contentType, input.bytes) ?? 'chat']()
  return converter(input, limits)
}
