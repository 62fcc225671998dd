import { createReadStream } from 'node:fs'
import { createHash } from 'node:crypto'
import type { Database } from '../../db/index.js'
import { convertBounded, ConvertError, partBytes, splitExport, type ConvertResult, type ExportPart, type SplitKind, type SplitOptions } from '../../convert/index.js'
import { serializeError } from '../../errors/index.js'
import { importPages, normalizeSlug, sourceHashesBySlug, type ImportResult } from '../../pages/index.js'
import { draftInput, trashPagesLeftBehind, type DocumentImportOptions, type DocumentInput, type DraftWrite } from './import-documents.js'
import type { FileFailure } from './import-files.js'

/**
 * A part holds at most this many items and bytes: one conversion's worth, small enough that
 * the converter's heap and time limits are never near, large enough that a part costs little.
 */
const PART_LIMITS: SplitOptions = { partBytes: 8 * 1024 * 1024, partItems: 500, maxItemBytes: 48 * 1024 * 1024 }

/** Chunks read from the file at a time. */
const READ_CHUNK = 1024 * 1024

interface StreamedInput extends Omit<DocumentInput, 'bytes' | 'files'> {
  /** The file on disk, read as a stream (twice: once for its hash, once in parts). */
  absolutePath: string
  kind: SplitKind
}

interface StreamedResult {
  /** null when nothing converted (unchanged, or every part failed). */
  format: ConvertResult['format'] | null
  sourceHash: string
  unchanged: boolean
  /** Items (messages, conversations) read from the export. */
  items: number
  counts: Record<string, number>
  /** Parts that could not be converted, named by the items they hold; the rest are imported. */
  failed: FileFailure[]
  removed: string[]
}

export interface StreamedOptions extends DocumentImportOptions {
  split?: SplitOptions
  /** Told after each part with the items read so far. */
  onItems?: (items: number) => void
  /** Told of each page written (or found unchanged). */
  onPage?: (page: ImportResult) => void
}

async function hashFile(path: string, signal: AbortSignal | undefined): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path, { highWaterMark: READ_CHUNK, signal })) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

const itemRange = (name: string, part: ExportPart, count: number): string =>
  count === 1 ? `${name} (item ${part.firstIndex + 1})` : `${name} (items ${part.firstIndex + 1}–${part.firstIndex + count})`

/**
 * Imports a large export (a mailbox of 100,000 messages, a chat export of hundreds of megabytes)
 * in parts, in bounded memory: the file is read as a stream, cut into parts of whole items, and
 * each part is converted in the bounded worker and written (in one transaction, or on the
 * embedded engine in shorter ones, see writePlannedPages) while the next is read and converted
 * (at most two parts in memory). A part that fails to convert is tried again
 * item by item, so one bad message costs itself only.
 *
 * A re-run of the same bytes does nothing: the first page of the export is written last, so its
 * carrying this version's hash says the whole export is in. A re-run after an interrupted import
 * converts again but writes only pages not yet stored as they are.
 */
export async function importExportInParts(db: Database, input: StreamedInput, options: StreamedOptions = {}): Promise<StreamedResult> {
  const sourceHash = await hashFile(input.absolutePath, options.signal)
  const earlier = await sourceHashesBySlug(db, input.sourceId, input.sourceUri)
  const result: StreamedResult = { format: null, sourceHash, unchanged: false, items: 0, counts: {}, failed: [], removed: [] }
  const slugs = new Set<string>()
  // A Telegram chat spans parts, and each part's conversion counts it again.
  const chats = new Set<string>()
  let lastWritten: DraftWrite | null = null
  const documentInput: DocumentInput = { ...input, bytes: new Uint8Array() }
  const write = async (writes: readonly DraftWrite[]): Promise<void> => {
    for (const page of await writeDrafts(db, documentInput, writes, options)) options.onPage?.(page)
  }
  // A part is written while the next one is read and converted in the worker.
  let writing: Promise<void> | null = null
  const afterWrite = async (): Promise<void> => {
    const previous = writing
    writing = null
    if (previous !== null) await previous
  }
  try {
    const stream = createReadStream(input.absolutePath, { highWaterMark: READ_CHUNK, signal: options.signal }) as AsyncIterable<Uint8Array>
    for await (const part of splitExport(input.kind, stream, input.name, options.split ?? PART_LIMITS)) {
      options.signal?.throwIfAborted()
      if ('tooLarge' in part) {
        result.items++
        const error = new ConvertError('convert_too_large', `${input.name}: item ${part.firstIndex + 1} is ${part.tooLarge} bytes, past ${(options.split ?? PART_LIMITS).maxItemBytes}`)
        result.failed.push(failure(itemRange(input.name, part, 1), error))
        continue
      }
      result.items += part.items.length
      const items = result.items
      if (part.header !== undefined) chats.add(part.header.toString('utf8'))
      const converted = await convertPart(input, part, options, result)
      await afterWrite()
      const writes = converted.flatMap(({ format, drafts }) =>
        drafts.map((draft): DraftWrite => {
          const slug = normalizeSlug(input.slugPrefix ? `${input.slugPrefix}/${draft.slugHint}` : draft.slugHint)
          return { format, draft, slug, sourceHash, earlierHash: earlier.get(slug) }
        }),
      )
      if (writes.length === 0) continue
      if (lastWritten === null) {
        // The export's first page, kept for last: found with this hash, the export is all in.
        if (earlier.get(writes[0]!.slug) === sourceHash) return { ...result, unchanged: true, items: 0, counts: {}, failed: [] }
        lastWritten = { ...writes[0]!, earlierHash: undefined }
        slugs.add(lastWritten.slug)
        result.format = lastWritten.format
      }
      for (const w of writes) slugs.add(w.slug)
      const first = lastWritten
      writing = write(writes.filter((w) => w.slug !== first.slug)).then(() => options.onItems?.(items))
      // Awaited before the next part's write or at the end; a failure meanwhile is not unhandled.
      writing.catch(() => undefined)
    }
    await afterWrite()
  } finally {
    // Whatever ends the reading (an abort, a failed conversion), no write is left running.
    await writing?.catch(() => undefined)
  }
  if (chats.size > 0) result.counts.conversations = chats.size
  if (lastWritten === null) {
    if (result.failed.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: no messages or conversations`)
    return result
  }
  await write([lastWritten])
  // Pages of items that failed this time stay: only a whole reading says what the file no longer holds.
  if (options.removeMissing && result.failed.length === 0) result.removed = await trashPagesLeftBehind(db, documentInput, [...slugs])
  return result
}

/**
 * The pages of one part through the batch pipeline: those not stored yet are written together,
 * one statement per table per transaction, so a part costs a few statements instead of ten per
 * message; the others are compared, and written one by one, as writeDraft would. A page that
 * cannot be written stops the import, as it did written alone.
 */
async function writeDrafts(db: Database, input: DocumentInput, writes: readonly DraftWrite[], options: StreamedOptions): Promise<ImportResult[]> {
  if (writes.length === 0) return []
  const outcomes = await importPages(
    db,
    writes.map((w) => draftInput(input, w)),
    options,
  )
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw outcome.error
    return outcome.result
  })
}

/** One part converted, or, when it fails as a whole, each of its items on its own. */
async function convertPart(input: StreamedInput, part: Extract<ExportPart, { items: Buffer[] }>, options: StreamedOptions, result: StreamedResult): Promise<ConvertResult[]> {
  const attempt = async (items: Buffer[], firstIndex: number): Promise<ConvertResult> => {
    const converted = await convertBounded({ bytes: partBytes(input.kind, items, part.header), name: input.name, contentType: input.contentType, firstIndex }, options.limits)
    for (const [key, n] of Object.entries(converted.counts)) result.counts[key] = (result.counts[key] ?? 0) + n
    return converted
  }
  try {
    return [await attempt(part.items, part.firstIndex)]
  } catch (err) {
    // A Telegram part is whole months of a chat: one message alone would rewrite its month's page.
    if (part.items.length === 1 || input.kind === 'telegram') {
      result.failed.push(failure(itemRange(input.name, part, part.items.length), err))
      return []
    }
  }
  const converted: ConvertResult[] = []
  for (const [offset, item] of part.items.entries()) {
    try {
      converted.push(await attempt([item], part.firstIndex + offset))
    } catch (err) {
      result.failed.push(failure(itemRange(input.name, { ...part, firstIndex: part.firstIndex + offset }, 1), err))
    }
  }
  return converted
}

function failure(path: string, error: unknown): FileFailure {
  const envelope = serializeError(error)
  return { path, class: envelope.class, code: envelope.code, message: envelope.message }
}
