import { readFile, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { refreshPlannerStatistics, type Database } from '../../db/index.js'
import { converterFor, exportFolders, isDocumentPath, SNIFF_BYTES, splitKindFor, type ExportFolder, type SplitKind } from '../../convert/index.js'
import { NotFoundError, serializeError } from '../../errors/index.js'
import { createFileFilter, compileGlobs, readFirstBytes, walkFiles, type FileFilter, type SyncStrategy, type IgnoredFile, type WalkedFile } from '../sources/index.js'
import { readExportManifest } from './export-manifest.js'
import { importDocument, NOT_CONTENT } from './import-documents.js'
import { importFiles, slugForFile, type ImportFilesOptions, type ImportFilesResult } from './import-files.js'
import { importExportInParts } from './import-stream.js'
import type { ImportResult } from '../../pages/index.js'
import { mostLinkedFirst } from './link-order.js'

/** How much a brain grows per byte of the files imported, at the least. */
const GROWTH_PER_BYTE = 4

export interface ImportFolderOptions extends ImportFilesOptions {
  strategy: SyncStrategy
  include?: readonly string[]
  exclude?: readonly string[]
}

/** Per-format counts of the documents (PDF, chat exports, …) a folder import converted. */
interface FormatCount {
  files: number
  pages: number
  unchanged: number
  failed: number
  /** Pages moved to the trash because the file no longer holds them (a conversation taken out of an export). */
  removed: number
}

export interface ImportFolderResult extends ImportFilesResult {
  root: string
  strategy: SyncStrategy
  /** Files of accepted names that were not imported (links, pipes, devices, data taken for a log), with the reason. */
  ignored: IgnoredFile[]
  /** Documents by source format (`pdf`, `chatgpt`, …; `failed` for files no converter read). */
  formats: Record<string, FormatCount>
  /** What converters counted (secrets scrubbed, messages, PDF pages). */
  documentCounts: Record<string, number>
  /** Pages moved to the trash because their document no longer holds them. */
  removedSlugs: string[]
}

/** Document files the walk takes: any converter's file under the same folders and globs as the rest. */
function documentFilter(base: FileFilter, options: ImportFolderOptions): FileFilter {
  const include = compileGlobs(options.include ?? [])
  const exclude = compileGlobs(options.exclude ?? [])
  return {
    enterDirectory: (dir) => base.enterDirectory(dir),
    kindOf(relativePath) {
      const name = relativePath.slice(relativePath.lastIndexOf('/') + 1)
      if (name.startsWith('.') || !isDocumentPath(relativePath)) return null
      if (!include.empty && !include.matches(relativePath)) return null
      return exclude.matches(relativePath) ? null : 'markdown'
    },
  }
}

/** Imports every accepted file below a folder; the folder need not be a git repository. */
export async function importFolder(db: Database, root: string, options: ImportFolderOptions): Promise<ImportFolderResult> {
  const absoluteRoot = resolve(root)
  const info = await stat(absoluteRoot).catch(() => null)
  if (!info?.isDirectory()) {
    throw new NotFoundError('folder_not_found', `${absoluteRoot} is not a folder.`, { hint: 'Pass the path of a folder of notes or code.' })
  }
  const filter = createFileFilter({ strategy: options.strategy, include: options.include, exclude: options.exclude })
  const ignored: IgnoredFile[] = []
  const withDocuments = options.strategy === 'auto'
  // Files a converter reads (a chat export's .json, a saved .html) are not also imported as code.
  const walked = await walkFiles(absoluteRoot, filter, (file) => ignored.push(file))
  // An unpacked export (Slack's, Telegram's HTML) is one document, not a file of code per
  // channel and day or a web page per file of messages.
  const exports = withDocuments
    ? await exportFolders(
        walked.map((f) => f.relativePath),
        (path) => readFirstBytes(join(absoluteRoot, path), SNIFF_BYTES).catch(() => new Uint8Array()),
      )
    : null
  const inExport = (path: string): boolean => exports?.owns(path) ?? false
  const jsonExports = withDocuments ? await appJsonExports(walked.filter((f) => !isDocumentPath(f.relativePath) && !inExport(f.relativePath))) : new Set<string>()
  const files = walked.filter((f) => !withDocuments || (!isDocumentPath(f.relativePath) && !inExport(f.relativePath) && !jsonExports.has(f.relativePath)))
  const documents = withDocuments
    ? [
        ...(await walkFiles(absoluteRoot, documentFilter(filter, options), (file) => ignored.push(file))).filter((f) => !inExport(f.relativePath)),
        ...walked.filter((f) => jsonExports.has(f.relativePath)),
      ]
    : []
  const exported = await readExportManifest(absoluteRoot)
  const slugFor = exported.size === 0 ? options.slugFor : (file: Parameters<typeof slugForFile>[0]) => exported.get(file.relativePath) ?? slugForFile(file)
  // A brain takes several times the bytes of the text it stores (chunks, their searched copy,
  // vectors, indexes): about 5.8 times for long documents, 11 for a vault of short notes.
  await db.expectGrowth?.(GROWTH_PER_BYTE * [...files, ...documents].reduce((sum, f) => sum + f.size, 0))
  const ordered = await mostLinkedFirst(db, options.sourceId, files)
  const result = await importFiles(db, ordered, { ...options, slugFor })
  if (ordered !== files) result.failed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const folder: ImportFolderResult = { ...result, root: absoluteRoot, strategy: options.strategy, ignored, formats: {}, documentCounts: {}, removedSlugs: [] }
  const read = (f: WalkedFile): FolderDocument => ({ path: f.relativePath, absolutePath: f.absolutePath, read: async () => ({ bytes: await readFile(f.absolutePath) }) })
  const writtenBefore = folder.created + folder.updated
  await importDocuments(db, [...documents.map(read), ...exportDocuments(absoluteRoot, exports?.folders ?? [])], options, folder)
  // The documents can be most of an import (a mailbox of 100,000 messages): the queries after it
  // are planned on the tables' sizes after it, as after the files' part.
  if (folder.created + folder.updated > writtenBefore) await refreshPlannerStatistics(db, { afterBulkWrite: true })
  ignored.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return folder
}

/** A document a folder import converts: one file, or an export unpacked into a folder. */
interface FolderDocument {
  /** Its path below the root, which is also its source URI. */
  path: string
  /** A file's place on disk (none for an unpacked export): a large export is read from it in parts. */
  absolutePath?: string
  read: () => Promise<{ bytes: Uint8Array; files?: Record<string, Uint8Array> }>
}

/**
 * The JSON files among these that an app exported (a Roam graph, a Telegram `result.json` moved
 * out of its folder), known by their first bytes, as paths: a document each, not code. Any
 * other JSON stays code or data.
 */
async function appJsonExports(files: readonly WalkedFile[]): Promise<Set<string>> {
  const found = new Set<string>()
  for (const file of files) {
    if (!file.relativePath.toLowerCase().endsWith('.json')) continue
    const head = await readFirstBytes(file.absolutePath, SNIFF_BYTES).catch(() => new Uint8Array())
    if (converterFor(file.relativePath, undefined, head) !== null) found.add(file.relativePath)
  }
  return found
}

/** The files each export folder's converter reads, as one document per folder. */
function exportDocuments(root: string, folders: readonly ExportFolder[]): FolderDocument[] {
  return folders.map(({ folder, members }) => {
    const prefix = folder === '' ? '' : `${folder}/`
    return {
      path: folder === '' ? basename(root) : folder,
      read: async () => ({
        bytes: new Uint8Array(),
        files: Object.fromEntries(await Promise.all(members.map(async (path) => [path.slice(prefix.length), await readFile(join(root, path))] as const))),
      }),
    }
  })
}

function isJsonLines(path: string): boolean {
  return path.toLowerCase().endsWith('.jsonl')
}

/** Converts and imports each document into `result`; a document that fails is recorded and the rest go on. */
function bumpFormat(result: ImportFolderResult, format: string, key: keyof FormatCount, n = 1): void {
  const entry = (result.formats[format] ??= { files: 0, pages: 0, unchanged: 0, failed: 0, removed: 0 })
  entry[key] += n
}

/** A page a document gave, counted into the folder's result. */
function tallyPage(result: ImportFolderResult, page: ImportResult): void {
  result[page.status]++
  result.chunks += page.chunks
  result.embedded += page.embedded
  if (page.status !== 'skipped') {
    result.touchedSlugs.push(page.slug)
    result.pageIds.push(page.pageId)
  }
}

/** What every document of a folder is imported with; a file gone from an export takes its pages with it. */
function documentImportOptions(options: ImportFolderOptions) {
  return { embedder: options.embedder, maxFences: options.maxFences, onWarning: options.onWarning, keepVersions: options.keepVersions, signal: options.signal, removeMissing: true }
}

/**
 * A mailbox or chat export read from disk in parts (see importExportInParts): any size, in
 * bounded memory; a part that fails is recorded with the items it holds and the rest go on.
 */
async function importInParts(
  db: Database,
  file: { path: string; absolutePath: string; kind: SplitKind },
  options: ImportFolderOptions,
  result: ImportFolderResult,
  onItems: (items: number) => void,
): Promise<void> {
  let pages = 0
  const imported = await importExportInParts(
    db,
    { absolutePath: file.absolutePath, kind: file.kind, name: file.path, sourceId: options.sourceId, sourceUri: file.path, sourceKind: 'file' },
    {
      ...documentImportOptions(options),
      onItems,
      onPage: (page) => {
        pages++
        tallyPage(result, page)
      },
    },
  )
  if (imported.unchanged) {
    result.skipped++
    bumpFormat(result, 'unchanged', 'unchanged')
    return
  }
  const format = imported.format ?? 'failed'
  bumpFormat(result, format, 'files')
  bumpFormat(result, format, 'pages', pages)
  bumpFormat(result, format, 'removed', imported.removed.length)
  result.removedSlugs.push(...imported.removed)
  for (const [key, n] of Object.entries(imported.counts)) result.documentCounts[key] = (result.documentCounts[key] ?? 0) + n
  for (const failed of imported.failed) {
    bumpFormat(result, 'failed', 'failed')
    result.failed.push(failed)
  }
}

async function importDocuments(db: Database, documents: readonly FolderDocument[], options: ImportFolderOptions, result: ImportFolderResult): Promise<void> {
  const bump = (format: string, key: keyof FormatCount, n = 1): void => bumpFormat(result, format, key, n)
  result.files += documents.length
  for (const [index, file] of documents.entries()) {
    options.signal?.throwIfAborted()
    options.onProgress?.({ phase: 'import', done: index, total: documents.length, path: file.path })
    try {
      const kind = file.absolutePath === undefined ? null : splitKindFor(file.path, await readFirstBytes(file.absolutePath, SNIFF_BYTES))
      if (kind !== null) {
        await importInParts(db, { ...file, absolutePath: file.absolutePath!, kind }, options, result, (items) =>
          options.onProgress?.({ phase: 'import', done: index, total: documents.length, path: `${file.path}: ${items} read` }),
        )
        continue
      }
      const { bytes, files } = await file.read()
      const imported = await importDocument(
        db,
        { bytes, files, name: file.path, sourceId: options.sourceId, sourceUri: file.path, sourceKind: 'file' },
        {
          ...documentImportOptions(options),
          refuseNoindex: true,
        },
      )
      if (imported.unchanged) {
        result.skipped++
        bump('unchanged', 'unchanged')
        continue
      }
      const format = imported.format ?? 'unknown'
      bump(format, 'files')
      bump(format, 'pages', imported.pages.length)
      bump(format, 'removed', imported.removed.length)
      result.removedSlugs.push(...imported.removed)
      for (const [key, n] of Object.entries(imported.counts)) result.documentCounts[key] = (result.documentCounts[key] ?? 0) + n
      for (const page of imported.pages) tallyPage(result, page)
    } catch (err) {
      const envelope = serializeError(err)
      // A page that only sends readers elsewhere, or asks not to be indexed, is no content of the
      // site's own: counted, not a failure.
      const notContent = NOT_CONTENT.get(envelope.code)
      if (notContent !== undefined) {
        result.documentCounts[notContent] = (result.documentCounts[notContent] ?? 0) + 1
        continue
      }
      // `.jsonl` is as often data (rows, events, fixtures) as a chat or agent log: one that is
      // no log was never a document to import, so it is left out, not failed.
      if (envelope.code === 'convert_unsupported' && isJsonLines(file.path)) {
        result.ignored.push({ path: file.path, reason: 'not_a_chat_log' })
        continue
      }
      bump('failed', 'failed')
      result.failed.push({ path: file.path, class: envelope.class, code: envelope.code, message: envelope.message })
    }
  }
  if (documents.length > 0) options.onProgress?.({ phase: 'import', done: documents.length, total: documents.length })
}
