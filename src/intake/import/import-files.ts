import { availableParallelism } from 'node:os'
import type { JournalFormats } from '../../convert/index.js'
import { refreshPlannerStatistics, type Database } from '../../db/index.js'
import type { EmbeddingProvider } from '../../embedding/index.js'
import { serializeError, ValidationError, type ErrorEnvelope } from '../../errors/index.js'
import {
  codeSlugForPath,
  markdownSlugForPath,
  planPages,
  startVectorAnalysis,
  writePlannedPages,
  type BatchOutcome,
  type ImportInput,
  type ImportStatus,
  type ImportOptions,
  type PlannedBatch,
  type PlanOptions,
  type VectorAnalyser,
} from '../../pages/index.js'
import { isMinifiedCode, readTextFileSync, type WalkedFile } from '../sources/index.js'
import { journalFormatReader } from './journal-formats.js'
import { EmbedFollower } from '../../embedding/store/index.js'

export interface FileFailure {
  path: string
  class: string
  code: string
  message: string
}

export interface ImportFilesResult {
  files: number
  created: number
  updated: number
  skipped: number
  failed: FileFailure[]
  chunks: number
  embedded: number
  embedError: ErrorEnvelope | null
  /** Slugs written (created or updated), for follow-up work such as extraction. */
  touchedSlugs: string[]
  pageIds: number[]
}

export interface ImportFilesProgress {
  phase: 'import' | 'embed'
  done: number
  total: number
  path?: string
}

export interface ImportFilesOptions {
  sourceId: string
  embedder: EmbeddingProvider | null
  maxFences?: number
  signal?: AbortSignal
  onProgress?: (progress: ImportFilesProgress) => void
  onWarning?: (message: string) => void
  /** Chunks per embedding call when embedding after the import. */
  embedBatchSize?: number
  /** Where a file's text comes from; default: the file on disk (sync reads committed blobs). */
  readContent?: (file: WalkedFile) => Promise<string>
  /** Provenance stamped on written pages; default: the relative path, kind `file`. */
  provenanceFor?: (file: WalkedFile) => { sourceUri: string; sourceKind: string }
  /** A file's slug; default: from its path (`slugForFile`). */
  slugFor?: (file: Pick<WalkedFile, 'relativePath' | 'kind'>) => string
  /** Keep overwritten content as versions (default true); see ImportOptions. */
  keepVersions?: boolean
  /** Files read and written per batch (default 100, or 8 with an embedder). */
  batchFiles?: number
}

/**
 * Files read and written per batch (bench/import: larger batches gained nothing more). With an
 * embedder following the writes, batches are smaller, so the model starts on the first pages
 * early instead of waiting for a hundred files.
 */
const IMPORT_BATCH_FILES = 100
const FOLLOWED_BATCH_FILES = 8
/** Batches an import needs before it works out its full-text vectors on a compute lane. */
const LANE_MIN_BATCHES = 3
/** Cores a machine needs before an import works its vectors out on a compute lane. */
const LANE_MIN_CORES = 4
/** Batches in a row the lane may fall behind before an import stops using it. */
const LANE_LATE_BATCHES = 3
/**
 * A batch also ends at this many bytes of files. Up to three batches are in memory at once (one
 * written, one parsed, one read), so a folder of files near the size limit stays within a few
 * hundred megabytes, and no statement carries more than this much text.
 */
const IMPORT_BATCH_BYTES = 32 * 1024 * 1024

export function slugForFile(file: Pick<WalkedFile, 'relativePath' | 'kind'>): string {
  return file.kind === 'code' ? codeSlugForPath(file.relativePath) : markdownSlugForPath(file.relativePath)
}

/**
 * Files that map to one slug (`Note.md` and `note.md`): importing both would let one silently
 * replace the other, so each of them is reported and neither is written.
 */
function slugCollisions(files: readonly WalkedFile[], slugFor: (file: WalkedFile) => string): Map<string, FileFailure> {
  const bySlug = new Map<string, string[]>()
  for (const file of files) {
    let slug: string
    try {
      slug = slugFor(file)
    } catch {
      continue
    }
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), file.relativePath])
  }
  const failures = new Map<string, FileFailure>()
  for (const [slug, paths] of bySlug) {
    if (paths.length < 2) continue
    for (const path of paths) {
      const others = paths.filter((p) => p !== path).join(', ')
      failures.set(path, { path, class: 'ValidationError', code: 'slug_collision', message: `${path} and ${others} both map to the slug ${slug}; neither was imported. Rename one of them.` })
    }
  }
  return failures
}

/**
 * Imports files through the one page pipeline. A file that fails is recorded with its error
 * and the rest continue. Embedding follows the writes (each page's chunks once the page is
 * committed), overlapping the model with reading and parsing; a slow or failing provider never
 * holds up or loses the text.
 */
export async function importFiles(db: Database, files: readonly WalkedFile[], options: ImportFilesOptions): Promise<ImportFilesResult> {
  const result: ImportFilesResult = { files: files.length, created: 0, updated: 0, skipped: 0, failed: [], chunks: 0, embedded: 0, embedError: null, touchedSlugs: [], pageIds: [] }
  const follower = options.embedder ? embedFollower(db, options.embedder, options) : undefined
  const slugFor = options.slugFor ?? slugForFile
  const collisions = slugCollisions(files, slugFor)
  const batchFiles = Math.max(1, Math.floor(options.batchFiles ?? (follower ? FOLLOWED_BATCH_FILES : IMPORT_BATCH_FILES)))
  const starts = batchStarts(files, batchFiles, IMPORT_BATCH_BYTES)
  const importOptions = { maxFences: options.maxFences, onWarning: options.onWarning, keepVersions: options.keepVersions }
  const read = (k: number): Promise<ReadFile[]> => readBatch(files.slice(starts[k], starts[k + 1]), collisions, options)
  const journalFormats = journalFormatReader()
  const stage = async (k: number, batch: readonly ReadFile[], plan: PlanOptions): Promise<Stage> => {
    const { slots, inputs } = batchInputs(batch, { start: starts[k]!, total: files.length, slugFor, journalFormats, options })
    const planned = await planPages(inputs, importOptions, plan)
    const analysed = { done: false }
    void planned.vectors?.then(() => (analysed.done = true))
    return { slots, plan: planned, analysed }
  }
  const batches = starts.length - 1
  // On the embedded engine, text analysis of each batch runs on another core while the batch
  // before is written. A lane takes a second or two to start, which an import of one or two
  // batches does not earn back, and an embedder following the writes needs that core for the
  // model. On two cores V8's own compiler threads already share the second one, and the lane made
  // imports slower there; a server already parses on its own cores beside this process, and the
  // vectors' round trip through this process cost more than it saved (bench/README.md).
  const useLane = batches >= LANE_MIN_BATCHES && follower === undefined && !db.capabilities.parallelStatements && availableParallelism() >= LANE_MIN_CORES
  const analysis = useLane ? startVectorAnalysis(db) : null
  try {
    await importBatches(db, result, { batches, read, stage, importOptions, follower, analysis })
  } finally {
    await analysis?.close()
  }
  options.onProgress?.({ phase: 'import', done: files.length, total: files.length })
  if (follower !== undefined) {
    const embedded = await follower.finish()
    result.embedded = embedded.embedded
    result.embedError = embedded.error
  }
  if (result.created + result.updated > 0) await refreshPlannerStatistics(db, { afterBulkWrite: true })
  return result
}

/**
 * Writes batch after batch: while one is written, the next is read and parsed (and its text
 * analysed on the lane); a server engine then works on the statements while this process parses.
 */
async function importBatches(
  db: Database,
  result: ImportFilesResult,
  context: {
    batches: number
    read: (k: number) => Promise<ReadFile[]>
    stage: (k: number, batch: readonly ReadFile[], plan: PlanOptions) => Promise<Stage>
    importOptions: ImportOptions
    follower: EmbedFollower | undefined
    analysis: { ready: () => VectorAnalyser | null; close: () => Promise<void> } | null
  },
): Promise<void> {
  const { batches, read, stage, importOptions, follower, analysis } = context
  const first = batches > 0 ? read(0) : null
  let reading = batches > 1 ? read(1) : null
  let current = first === null ? null : await stage(0, await first, {})
  // Whether the last batch written held new or changed pages: chunks cut ahead are wasted on unchanged ones.
  let wrote = true
  // Batches in a row whose vectors the lane had not finished when their write began.
  let lateInARow = 0
  for (let k = 0; current !== null; k++) {
    if (current.plan.vectors !== undefined && !current.analysed.done) {
      // The write does not wait for a lane that falls behind (the second core is busy): the
      // triggers compute this batch's vectors, and after three such batches in a row the lane is left.
      current = { ...current, plan: { ...current.plan, vectors: undefined } }
      // A lane left behind gives its memory and its core back at once.
      if (++lateInARow === LANE_LATE_BATCHES) analysis?.close().catch(() => undefined)
    } else if (current.plan.vectors !== undefined) {
      lateInARow = 0
    }
    const useLane = wrote && lateInARow < LANE_LATE_BATCHES
    const writing = writePlannedPages(db, current.plan, importOptions)
    // Handled at once: a write that fails while the next batch is parsed must not count as unhandled.
    const settled = writing.then(
      () => undefined,
      () => undefined,
    )
    let following: Stage | null = null
    try {
      if (reading !== null) {
        const batch = await reading
        reading = k + 2 < batches ? read(k + 2) : null
        following = await stage(k + 1, batch, { chunk: wrote, yieldBetweenPages: true, analyser: useLane ? analysis?.ready() : null })
      }
    } catch (error) {
      await settled
      throw error
    }
    wrote = tally(result, current.slots, await writing, follower)
    current = following
  }
}

/** Where each batch starts, and files.length last: at most maxFiles files, and maxBytes unless one file alone is larger. */
export function batchStarts(files: readonly Pick<WalkedFile, 'size'>[], maxFiles: number, maxBytes: number): number[] {
  const starts = [0]
  let bytes = 0
  for (const [index, file] of files.entries()) {
    const start = starts[starts.length - 1]!
    if (index > start && (index - start >= maxFiles || bytes + file.size > maxBytes)) {
      starts.push(index)
      bytes = 0
    }
    bytes += file.size
  }
  if (files.length > 0) starts.push(files.length)
  return starts
}

/** A file's place in its batch: the failure that settled it, or the index of its page input. */
interface Slot {
  file: WalkedFile
  failure?: FileFailure
  error?: unknown
  input?: number
}

/** A batch read and parsed, waiting for its write. */
interface Stage {
  slots: Slot[]
  plan: PlannedBatch
  /** Whether the lane has finished the batch's vectors. */
  analysed: { done: boolean }
}

/** The page inputs of a batch's files, each file's slot in file order; reports progress per file. */
function batchInputs(
  batch: readonly ReadFile[],
  context: {
    start: number
    total: number
    slugFor: (file: WalkedFile) => string
    journalFormats: (file: WalkedFile) => JournalFormats | undefined
    options: ImportFilesOptions
  },
): { slots: Slot[]; inputs: ImportInput[] } {
  const { options } = context
  const slots: Slot[] = []
  const inputs: ImportInput[] = []
  for (const [offset, { file, failure, content, error }] of batch.entries()) {
    options.signal?.throwIfAborted()
    options.onProgress?.({ phase: 'import', done: context.start + offset, total: context.total, path: file.relativePath })
    if (failure) {
      slots.push({ file, failure })
      continue
    }
    try {
      if (content === undefined) throw error
      const slug = context.slugFor(file)
      const provenance = options.provenanceFor?.(file) ?? { sourceUri: file.relativePath, sourceKind: 'file' }
      slots.push({ file, input: inputs.length })
      inputs.push({ slug, sourceId: options.sourceId, kind: file.kind, content, path: file.relativePath, provenance, journalFormats: context.journalFormats(file) })
    } catch (error) {
      slots.push({ file, error })
    }
  }
  return { slots, inputs }
}

/** Adds a written batch's outcomes to the result in file order; true when it created or updated a page. */
function tally(result: ImportFilesResult, slots: readonly Slot[], outcomes: readonly BatchOutcome[], follower: EmbedFollower | undefined): boolean {
  const count: Record<ImportStatus, (r: ImportFilesResult) => void> = {
    created: (r) => r.created++,
    updated: (r) => r.updated++,
    skipped: (r) => r.skipped++,
  }
  let wrote = false
  for (const slot of slots) {
    if (slot.failure) {
      result.failed.push(slot.failure)
      continue
    }
    const outcome = slot.input === undefined ? ({ ok: false, error: slot.error } as const) : outcomes[slot.input]!
    if (!outcome.ok) {
      const envelope = serializeError(outcome.error)
      result.failed.push({ path: slot.file.relativePath, class: envelope.class, code: envelope.code, message: envelope.message })
      continue
    }
    const imported = outcome.result
    count[imported.status](result)
    result.chunks += imported.chunks
    if (imported.status !== 'skipped') {
      wrote = true
      result.touchedSlugs.push(imported.slug)
      result.pageIds.push(imported.pageId)
      follower?.add(imported.pageId)
    }
  }
  return wrote
}

/** A file of a batch as read: its text, the collision that keeps it out, or the error reading it. */
interface ReadFile {
  file: WalkedFile
  failure?: FileFailure
  content?: string
  error?: unknown
}

/**
 * Reads a batch's files while the batch before is written: files through readTextFileSync, other
 * content (git blobs) all at once. Never rejects; each error stays with its file.
 */
function readBatch(batch: readonly WalkedFile[], collisions: ReadonlyMap<string, FileFailure>, options: ImportFilesOptions): Promise<ReadFile[]> {
  return Promise.all(
    batch.map(async (file): Promise<ReadFile> => {
      const failure = collisions.get(file.relativePath)
      if (failure) return { file, failure }
      try {
        const content = options.readContent ? await options.readContent(file) : readTextFileSync(file.absolutePath)
        if (file.kind === 'code' && isMinifiedCode(file.relativePath, content)) {
          throw new ValidationError('minified_file', `${file.relativePath} is minified or generated code (very long lines); it is not imported.`, {
            hint: 'Import the source it was built from, or exclude it with --exclude.',
          })
        }
        return { file, content }
      } catch (error) {
        return { file, error }
      }
    }),
  )
}

function embedFollower(db: Database, embedder: EmbeddingProvider, options: ImportFilesOptions): EmbedFollower {
  return new EmbedFollower(db, embedder, {
    batchSize: options.embedBatchSize ?? 64,
    signal: options.signal,
    onProgress: (done, total) => options.onProgress?.({ phase: 'embed', done, total }),
  })
}
