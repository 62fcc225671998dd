/**
 * Converters: turn document files (PDF, web pages, mail, Word, EPUB books, notebooks, Evernote
 * exports, AI chat exports, messenger chats, agent transcripts) into page drafts, and read what
 * note formats say of a note in their own syntax (an Org header and title, a Logseq journal day's
 * name, a Notion export's properties), which pages take as front matter and titles.
 *
 * Each converter is pure — bytes, name and content type in, drafts out — with no network and no
 * content run; `convert` applies the size cap before any parsing, and `convertBounded` runs it in
 * a worker thread with a time and heap limit so a hostile file can be stopped.
 *
 * How the folder is laid out: `registry/<name>.ts` registers a format (its name, how a file of it
 * is known, its content types, whether it makes one page, its limits) and loads its converter,
 * `<name>.ts` here, only when a file of it comes, so knowing every format costs no parser.
 * `registry/index.ts` holds the list they are tried in and derives every table from it; here
 * beside the converters are detection (`detect.ts`), splitting large exports (`split*.ts`), the
 * bounded worker (`bounded.ts`, `worker.ts`), rendering drafts (`render.ts`), the pieces several
 * converters share (zip, XML, JSON, slugs, secrets) and the note formats' own parsers.
 * May import: chunking, errors, util.
 */
import { converterFor, folderConverterFor } from './detect.js'
import { ConvertError } from './errors.js'
import { FORMAT_BY_NAME, type ConverterKind, type SourceFormat } from './registry/index.js'
import { DEFAULT_LIMITS, type ConvertInput, type ConvertLimits, type ConvertResult as FormatResult } from './types.js'

export type { ConvertInput, ConvertLimits, PageDraft } from './types.js'
export type { SourceFormat } from './registry/index.js'
/** A conversion's result, as every format's converter makes it. */
export type ConvertResult = FormatResult<SourceFormat>
export { DEFAULT_LIMITS } from './types.js'
export { SINGLE_PAGE_FORMATS } from './registry/index.js'
export { ConvertError, type ConvertErrorCode } from './errors.js'
export { scrubSecrets, SECRET_PATTERNS } from './scrub.js'
export { detectChat } from './chat.js'
export { converterFor, exportFolders, SNIFF_BYTES, isDocumentPath, isSinglePageDocumentName, type ConverterKind, type ExportFolder, type ExportFolders } from './detect.js'
export { hashBytes, hashFiles, renderDraft } from './render.js'
export { convertBounded } from './bounded.js'
export { orgHeaderFrontmatter } from './org-header.js'
export { markupTitle } from './markup-title.js'
export { journalFormatsFromConfig, journalGraphFolder, journalTitle, type JournalFormats } from './logseq-journal.js'
export { NOTION_EXPORT_NAME, notionPropertyLines } from './notion-export.js'
export { partBytes, splitExport, splitKindFor, type ExportPart, type SplitKind, type SplitOptions } from './split.js'

/** Converts one file in this thread; entry paths use `convertBounded` instead. */
export async function convert(input: ConvertInput, limits: ConvertLimits = DEFAULT_LIMITS): Promise<ConvertResult> {
  checkSize(input, limits)
  if (input.files !== undefined) {
    const kind = folderConverterFor(input.files)
    if (kind === null) throw new ConvertError('convert_unsupported', `${input.name}: not an export this brain reads`)
    return run(kind, input, limits)
  }
  return run(converterFor(input.name, input.contentType, input.bytes) ?? 'chat', input, limits)
}

/** Runs a format's converter, loaded on first use (a conversion pays for its own parser only), under the format's own limits. */
async function run(kind: ConverterKind, input: ConvertInput, limits: ConvertLimits): Promise<ConvertResult> {
  const format = FORMAT_BY_NAME.get(kind)!
  if (format.limits === undefined) return (await format.convert())(input, limits)
  const own = format.limits
  const bounded = { ...limits, maxBytes: Math.min(limits.maxBytes, own.maxBytes ?? Infinity), maxDrafts: Math.min(limits.maxDrafts, own.maxDrafts ?? Infinity) }
  checkSize(input, bounded)
  return (await format.convert())(input, bounded)
}

function checkSize(input: ConvertInput, limits: ConvertLimits): void {
  const size = input.bytes.byteLength + Object.values(input.files ?? {}).reduce((sum, f) => sum + f.byteLength, 0)
  if (size > limits.maxBytes) throw new ConvertError('convert_too_large', `${input.name}: ${size} bytes exceed ${limits.maxBytes}`)
}
