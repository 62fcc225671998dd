/**
 * The registry of document formats: one object per format (`<name>.ts`, whose converter is
 * `../<name>.ts` or the module it names), and the list every table of the converters is derived
 * from — the names, what a name, a content type or a file's first bytes picks, which formats make
 * one page. A format file is cheap to import (names, patterns, a sniff); its converter is loaded
 * when a file of it comes. May import the converter modules lazily only.
 */
import { bookmarks } from './bookmarks.js'
import { canvas } from './canvas.js'
import { chat } from './chat.js'
import { dayone } from './dayone.js'
import { discord } from './discord.js'
import { docx } from './docx.js'
import { eml } from './eml.js'
import { enex } from './enex.js'
import { epub } from './epub.js'
import type { DocumentFormat, FALLBACK_FORMAT, FileFacts } from './format.js'
import { fileFacts } from './sniff.js'
import { html } from './html.js'
import { keep } from './keep.js'
import { kindle } from './kindle.js'
import { mbox } from './mbox.js'
import { notebook } from './notebook.js'
import { odt } from './odt.js'
import { opml } from './opml.js'
import { pdf } from './pdf.js'
import { pptx } from './pptx.js'
import { roam } from './roam.js'
import { slack } from './slack.js'
import { telegramHtml } from './telegram-html.js'
import { telegram } from './telegram.js'
import { text } from './text.js'
import { whatsapp } from './whatsapp.js'

export type { Converter, DocumentFormat, FileFacts } from './format.js'
export { defineFormat } from './format.js'
export { SNIFF_BYTES } from './sniff.js'
export { looksLikeTelegramHtml } from './telegram-html.js'

/**
 * Every format, in the order a file is tried against them: the first that claims it takes it, so
 * the narrow ones (a PDF by its header, an app's export by the name it gives it or its first
 * bytes) stand before the broad ones (any web page, any file of an extension).
 */
export const FORMATS = [
  pdf,
  chat,
  keep,
  whatsapp,
  slack,
  discord,
  roam,
  dayone,
  telegramHtml,
  telegram,
  bookmarks,
  html,
  eml,
  mbox,
  docx,
  notebook,
  enex,
  epub,
  kindle,
  opml,
  pptx,
  odt,
  canvas,
  text,
] as const

/** The converter names, what `converterFor` returns. */
export type ConverterKind = (typeof FORMATS)[number]['name']

/** What a conversion's result and pages call their format (`source_format`): what the registered formats produce. */
export type SourceFormat = (typeof FORMATS)[number]['produces'][number]

/** The fallback of every converter is a registered format (a compile error otherwise). */
const fallbackRegistered: typeof FALLBACK_FORMAT extends SourceFormat ? true : never = true
void fallbackRegistered

export const FORMAT_BY_NAME: ReadonlyMap<ConverterKind, DocumentFormat<ConverterKind, SourceFormat>> = new Map(FORMATS.map((f) => [f.name, f]))

/** The formats whose files become one page at their own path. */
export const SINGLE_PAGE_KINDS: ReadonlySet<ConverterKind> = new Set(FORMATS.filter((f) => f.singlePage).map((f) => f.name))

/** What the single-page formats' results are called. */
export const SINGLE_PAGE_FORMATS: ReadonlySet<SourceFormat> = new Set(FORMATS.filter((f) => f.singlePage).flatMap((f) => f.produces))

function startsWith(head: Uint8Array | undefined, magic: readonly number[] | undefined): boolean {
  if (magic === undefined || head === undefined || head.byteLength < magic.length) return false
  return magic.every((b, i) => head[i] === b)
}

const byContentType = new WeakMap<readonly DocumentFormat[], ReadonlyMap<string, DocumentFormat>>()

/** The format each declared content type names, in a registry. */
function contentTypesOf(formats: readonly DocumentFormat[]): ReadonlyMap<string, DocumentFormat> {
  let map = byContentType.get(formats)
  if (map === undefined) byContentType.set(formats, (map = new Map(formats.flatMap((f) => f.contentTypes.map((type) => [type, f] as const)))))
  return map
}

/**
 * The format of a file among `formats`, or undefined when none takes it. The content type wins
 * over the name (unless a format's sniff overrides that type); otherwise the first format in the
 * list that claims the file by its first bytes, its name or a sniff takes it.
 */
export function pickFormat<F extends DocumentFormat>(formats: readonly F[], name: string, contentType?: string, head?: Uint8Array): F | undefined {
  const file = fileFacts(name, head)
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()
  const byType = contentTypesOf(formats).get(type) as F | undefined
  if (byType !== undefined) return formats.find((f) => (f.sniffOverTypesOf?.includes(byType.name) ?? false) && sniffs(f, file)) ?? byType
  return formats.find((f) => claims(f, file))
}

/** Whether the format's sniff takes this file (only when its first bytes were read). */
function sniffs(format: DocumentFormat, file: FileFacts): boolean {
  return format.sniff !== undefined && file.head !== undefined && format.sniff.names(file) && format.sniff.test(file.head)
}

/** Whether the file is of this format by its first bytes, its name or its sniff. */
function claims(format: DocumentFormat, file: FileFacts): boolean {
  return startsWith(file.head, format.magic) || format.extensions.some((extension) => file.base.endsWith(extension)) || (format.fileName?.(file) ?? false) || sniffs(format, file)
}
