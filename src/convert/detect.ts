/** Which converter a file goes to, judged by its name, declared content type and first bytes (see formats/), and which folders are exports. */
import { FORMATS, looksLikeTelegramHtml, pickFormat, SINGLE_PAGE_KINDS, type ConverterKind } from './registry/index.js'

export { SNIFF_BYTES, type ConverterKind } from './registry/index.js'

/**
 * The converter for a file, or null when no converter takes it (see `pickFormat`). Plain text and markdown are converted only when a content type says so (a
 * fetched page); by name they are notes.
 */
export function converterFor(name: string, contentType?: string, bytes?: Uint8Array): ConverterKind | null {
  return pickFormat(FORMATS, name, contentType, bytes)?.name ?? null
}

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
