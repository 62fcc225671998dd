/** Which converter a file goes to, judged by its name, declared content type and first bytes. */

export type ConverterKind =
  | 'chat'
  | 'pdf'
  | 'html'
  | 'text'
  | 'eml'
  | 'mbox'
  | 'docx'
  | 'notebook'
  | 'enex'
  | 'epub'
  | 'whatsapp'
  | 'telegram'
  | 'telegram-html'
  | 'discord'
  | 'slack'
  | 'kindle'
  | 'opml'
  | 'pptx'
  | 'odt'
  | 'keep'
  | 'canvas'
  | 'bookmarks'
  | 'roam'
  | 'dayone'

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d] // %PDF-

function startsWithPdfMagic(bytes: Uint8Array | undefined): boolean {
  if (bytes === undefined || bytes.byteLength < PDF_MAGIC.length) return false
  return PDF_MAGIC.every((b, i) => bytes[i] === b)
}

function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1).toLowerCase()
}

/** A Maildir message: `<dir>/cur/<name>` or `<dir>/new/<name>` with Maildir's `<time>.<unique>` name. */
function isMaildirMessage(path: string): boolean {
  return /(^|\/)(cur|new)\/\d{9,}\.[^/]+$/.test(path)
}

/** A Google Keep note in a Google Takeout export. */
const KEEP_NOTE = /(^|\/)takeout\/(?:google )?keep\/[^/]+\.(json|html)$/i

/** Chat exports are recognised by name: other JSON files stay code or data. */
function isChatName(name: string): boolean {
  const base = baseName(name)
  return base.endsWith('.jsonl') || /^conversations.*\.json$/.test(base)
}

/** The chat types Telegram writes; one of them near the start marks a `result.json` as Telegram's. */
const TELEGRAM_SNIFF = new RegExp(
  String.raw`"type"\s*:\s*"(?:personal_chat|bot_chat|private_group|private_supergroup|public_supergroup|private_channel|public_channel|saved_messages)"|"personal_information"\s*:`,
)

/** How much of a file's start the sniffs below read: a caller that reads ahead needs no more. */
export const SNIFF_BYTES = 16 * 1024

/** The first bytes of a file as text, for a sniff; a character cut at the end does no harm. */
function headText(bytes: Uint8Array, length = 4096): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, length))
}

function looksLikeTelegram(bytes: Uint8Array): boolean {
  return TELEGRAM_SNIFF.test(headText(bytes))
}

/** A page of Telegram Desktop's HTML export: `messages.html`, then `messages2.html`, … */
const TELEGRAM_PAGE = /(^|\/)messages\d*\.html$/i

/** Telegram's markup, which each page of its HTML export opens with. */
function looksLikeTelegramHtml(bytes: Uint8Array): boolean {
  const head = headText(bytes, SNIFF_BYTES)
  return head.includes('class="page_header"') && head.includes('class="message')
}

/** A page of Telegram's HTML export, by its name and first bytes. */
function isTelegramPage(name: string, bytes: Uint8Array | undefined): boolean {
  return TELEGRAM_PAGE.test(name) && bytes !== undefined && looksLikeTelegramHtml(bytes)
}

/**
 * Roam Research's JSON export, by its first bytes: an array of pages with titles, Roam's
 * `create-time`/`edit-time` stamps and blocks. Any other JSON stays code or data.
 */
function looksLikeRoam(bytes: Uint8Array): boolean {
  const text = headText(bytes)
  return /^\s*\[\s*\{/.test(text) && /"title"\s*:/.test(text) && /"(?:create|edit)-time"\s*:/.test(text) && /"(?:children|string)"\s*:/.test(text)
}

/** Day One's JSON export of a journal, by its first bytes: its entries with Day One's `creationDate`. */
function looksLikeDayOne(bytes: Uint8Array): boolean {
  const text = headText(bytes)
  return /^\s*\{/.test(text) && /"entries"\s*:\s*\[/.test(text) && /"creationDate"\s*:/.test(text)
}

/** The first line every Netscape bookmark file starts with. */
export const BOOKMARK_DOCTYPE = /^\s*<!DOCTYPE\s+NETSCAPE-Bookmark-file-1\s*>/i

/** A Netscape bookmark file, by the doctype it opens with. */
function isBookmarkFile(bytes: Uint8Array): boolean {
  return BOOKMARK_DOCTYPE.test(headText(bytes, 256).replace(/^\ufeff/, ''))
}

/**
 * Exports of apps, by the names the apps give them: WhatsApp's `WhatsApp Chat with Ana.txt`
 * (in the app's language), an iPhone's `_chat.txt` and the zips holding either; Slack's
 * `<Workspace> Slack export <dates>.zip`; DiscordChatExporter's `Server - channel [id].json`;
 * Telegram's `result.json` in its `ChatExport_…`/`DataExport_…` folder, or with a Telegram chat
 * type in its first bytes; a page of its HTML export (`messages.html`) with Telegram's markup, and
 * either export folder zipped; Roam Research's `Roam-Export-….zip`, or its JSON by its first
 * bytes; Day One's JSON of a journal by its first bytes. Any other `.txt`, `.zip` or `.json` stays a note, a file or code.
 */
function appExportKind(name: string, bytes: Uint8Array | undefined): ConverterKind | null {
  const base = baseName(name)
  if (/\.(txt|zip)$/.test(base) && (base.includes('whatsapp') || base === '_chat.txt')) return 'whatsapp'
  if (base.endsWith('.zip') && base.includes('slack export')) return 'slack'
  if (/\[\d{15,21}\]\.json$/.test(base)) return 'discord'
  if (/^roam-export-[^/]*\.zip$/.test(base) || (base.endsWith('.json') && bytes !== undefined && looksLikeRoam(bytes))) return 'roam'
  if (base.endsWith('.json') && bytes !== undefined && looksLikeDayOne(bytes)) return 'dayone'
  if (/^(chat|data)export[^/]*\.zip$/.test(base)) return 'telegram-html'
  if (isTelegramPage(name, bytes)) return 'telegram-html'
  if (base === 'result.json' && (/(^|\/)(chat|data)export[^/]*\/result\.json$/i.test(name) || (bytes !== undefined && looksLikeTelegram(bytes)))) return 'telegram'
  return null
}

/**
 * The converter for a file, or null when no converter takes it. The content type wins over the
 * name, and a `%PDF-` header marks a PDF whatever it is called. Plain text and markdown are
 * converted only when a content type says so (a fetched page); by name they are notes.
 */
export function converterFor(name: string, contentType?: string, bytes?: Uint8Array): ConverterKind | null {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()
  const byType = TYPES[type]
  // A page of Telegram's HTML export is a chat, whatever type it was sent with.
  if (byType === 'html' && isTelegramPage(name, bytes)) return 'telegram-html'
  if (byType !== undefined) return byType
  if (startsWithPdfMagic(bytes) || baseName(name).endsWith('.pdf')) return 'pdf'
  if (isChatName(name)) return 'chat'
  if (KEEP_NOTE.test(name)) return 'keep'
  const exported = appExportKind(name, bytes)
  if (exported !== null) return exported
  if (/\.x?html?$/.test(baseName(name))) return bytes !== undefined && isBookmarkFile(bytes) ? 'bookmarks' : 'html'
  if (baseName(name).endsWith('.eml') || isMaildirMessage(name)) return 'eml'
  if (baseName(name).endsWith('.mbox')) return 'mbox'
  if (baseName(name).endsWith('.docx')) return 'docx'
  if (baseName(name).endsWith('.ipynb')) return 'notebook'
  if (baseName(name).endsWith('.enex')) return 'enex'
  if (baseName(name).endsWith('.epub')) return 'epub'
  if (baseName(name) === 'my clippings.txt') return 'kindle'
  if (baseName(name).endsWith('.opml')) return 'opml'
  if (baseName(name).endsWith('.pptx')) return 'pptx'
  if (baseName(name).endsWith('.odt')) return 'odt'
  if (baseName(name).endsWith('.canvas')) return 'canvas'
  return null
}

const TYPES: Record<string, ConverterKind> = {
  'application/pdf': 'pdf',
  'application/x-ndjson': 'chat',
  'application/jsonl': 'chat',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'message/rfc822': 'eml',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/mbox': 'mbox',
  'application/x-ipynb+json': 'notebook',
  'application/epub+zip': 'epub',
  'text/x-opml': 'opml',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'text/plain': 'text',
  'text/markdown': 'text',
}

const SINGLE_PAGE_KINDS: ReadonlySet<ConverterKind> = new Set(['pdf', 'html', 'docx', 'notebook', 'epub', 'opml', 'pptx', 'odt', 'keep', 'canvas', 'bookmarks'])

/**
 * Whether a file of this name becomes one page at its own path with the extension dropped
 * (`papers/Q1 Report.pdf` → `papers/q1-report`), as a folder import makes it: what a link to the
 * file must be resolved by.
 */
export function isSinglePageDocumentName(name: string): boolean {
  const kind = converterFor(name)
  return kind !== null && SINGLE_PAGE_KINDS.has(kind)
}

/** Whether a folder import hands this path to a converter (by name alone, before reading it). */
export function isDocumentPath(relativePath: string): boolean {
  return converterFor(relativePath) !== null
}

/** An export unpacked into a folder, which a folder import reads as one document. */
export interface ExportFolder {
  /** Its path below the import root (`''` for the root itself). */
  folder: string
  /** The files of it its converter reads, as paths below the root. */
  members: string[]
}

export interface ExportFolders {
  folders: ExportFolder[]
  /**
   * Whether a file below the root is part of an export: read with it, or its media, styles and
   * scripts. Such a file is no page of its own.
   */
  owns(path: string): boolean
}

/** The folders Telegram Desktop writes beside the pages of a chat's HTML export. */
const TELEGRAM_ASSETS = /^(?:css|js|images|photos|files|video_files|voice_messages|round_video_messages|stickers|contacts|profile_pictures|stories)\//

const within = (folder: string, path: string): string | undefined => (folder === '' ? path : path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined)
const parentOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '')

/**
 * The exports unpacked below an import root, found by the files they hold (paths relative to
 * the root): a Slack export (`channels.json` and `users.json` side by side) is its whole folder;
 * a Telegram HTML export is a folder whose `messages.html` has Telegram's markup (`readHead`
 * gives a file's first bytes), with the pages that continue it and the media folders beside
 * them. A whole Telegram account's export (`export_results.html` above `chats/chat_NNN/`) is one
 * document per chat, and nothing else of it is a page: its lists hold contacts and sessions.
 * An export in both formats is read from its `result.json` alone.
 */
export async function exportFolders(relativePaths: readonly string[], readHead: (path: string) => Promise<Uint8Array>): Promise<ExportFolders> {
  const present = new Set(relativePaths)
  const slack = relativePaths
    .filter((p) => p === 'channels.json' || p.endsWith('/channels.json'))
    .map(parentOf)
    .filter((folder) => present.has(folder === '' ? 'users.json' : `${folder}/users.json`))
  const telegram: string[] = []
  for (const path of relativePaths) {
    if (!/(^|\/)messages\.html$/.test(path) || slack.some((folder) => within(folder, path) !== undefined)) continue
    if (looksLikeTelegramHtml(await readHead(path))) telegram.push(parentOf(path))
  }
  const accounts = relativePaths
    .filter((p) => p === 'export_results.html' || p.endsWith('/export_results.html'))
    .map(parentOf)
    .filter((root) => telegram.some((folder) => /^chats\/[^/]+$/.test(within(root, folder) ?? '')))
  // Exported in both formats, the JSON is read (it names each chat's id) and the HTML is not.
  const json = (folder: string): string => (folder === '' ? 'result.json' : `${folder}/result.json`)
  const withJson = [...telegram.filter((folder) => present.has(json(folder))), ...accounts.filter((root) => present.has(json(root)))]
  const read = telegram.filter((folder) => !withJson.some((root) => within(root, folder) !== undefined || root === folder))
  const folders = [
    ...slack.map((folder) => ({ folder, members: relativePaths.filter((p) => within(folder, p) !== undefined && p.endsWith('.json')) })),
    ...read.map((folder) => ({ folder, members: relativePaths.filter((p) => /^messages\d*\.html$/i.test(within(folder, p) ?? '')) })),
  ]
  const wholly = [...slack, ...accounts]
  return {
    folders,
    owns: (path) =>
      (wholly.some((folder) => within(folder, path) !== undefined) && !withJson.some((root) => path === json(root))) ||
      telegram.some((folder) => {
        const inside = within(folder, path)
        return inside !== undefined && (/^messages\d*\.html$/i.test(inside) || TELEGRAM_ASSETS.test(inside))
      }),
  }
}

/** The converter for an export unpacked into a folder, by the files it holds. */
export function folderConverterFor(files: Readonly<Record<string, Uint8Array>>): ConverterKind | null {
  if ('channels.json' in files && 'users.json' in files) return 'slack'
  const page = files['messages.html']
  return page !== undefined && looksLikeTelegramHtml(page) ? 'telegram-html' : null
}
