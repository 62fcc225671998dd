import { CHUNKER_VERSION, chunkCode, chunkMarkdown, labelPdfPages, languageForPath, type ChunkDraft, type CodeLanguage } from '../chunking/index.js'
import type { Database, SqlExecutor } from '../db/index.js'
import { embedAndStore, pendingChunksOfPages } from '../embedding/store/index.js'
import type { EmbeddingProvider } from '../embedding/index.js'
import { isSqlStateError, NotFoundError, ValidationError, type ErrorEnvelope } from '../errors/index.js'
import { CallSiteCollector, replacePageCodeGraph } from '../code/index.js'
import { linkImportedMarkdown } from '../links/index.js'
import { upsertChunks } from './chunk-repository.js'
import { computePageContentHash } from './content-hash.js'
import type { JournalFormats } from '../convert/index.js'
import { recordWrite } from './keep-version.js'
import { findPageHash, replaceTags, upsertPage, type PageWrite } from './page-repository.js'
import { parseMarkdownPage } from './parse-markdown.js'
import { normalizeSlug } from './slug.js'
import { DEFAULT_SOURCE_ID, type PageKind, type Provenance } from './types.js'

/** Larger inputs are refused: they are generated or binary data, not notes or source. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024

export interface ImportInput {
  slug: string
  sourceId?: string
  kind: PageKind
  /** Markdown text (with optional front matter), or the source code of a code page. */
  content: string
  /** Code pages: the file path relative to its source root; it names the language and chunk headers. */
  path?: string
  provenance?: Partial<Provenance>
  /** What the page's history records this write as (`put_page`, `sync`, `revert`, …); derived from the provenance when unset. */
  writtenVia?: string
  /** The token name of an HTTP/MCP writer. */
  writtenBy?: string | null
  /**
   * Another text that counts as this same content: when the stored page is that text, the write
   * is `skipped`. A page of a many-page document keeps its text, and the hash of the file it was
   * converted from, when a new version of the file left that page as it was.
   */
  unchangedAs?: string
  /** How the Logseq graph the file belongs to names and titles its journal days (`logseq/config.edn`). */
  journalFormats?: JournalFormats
}

export interface ImportOptions {
  /** Embed new or changed chunks after the write; null or undefined skips embedding. */
  embedder?: EmbeddingProvider | null
  chunkSizeTokens?: number
  maxFences?: number
  signal?: AbortSignal
  onWarning?: (message: string) => void
  /** Work out the status without writing anything. */
  dryRun?: boolean
  /**
   * Derive the citation links of a markdown page (when config `auto_link` is not false). Default
   * true; untrusted (remote) writers pass false. Explicit links are written either way.
   */
  autoLink?: boolean
  /** Keep the replaced content as a version (default true); only measurements turn it off. */
  keepVersions?: boolean
}

export type ImportStatus = 'created' | 'updated' | 'skipped'

export interface ImportResult {
  status: ImportStatus
  slug: string
  sourceId: string
  pageId: number
  contentHash: string
  pageKind: PageKind
  chunks: number
  embedded: number
  embedError: ErrorEnvelope | null
}

export interface PreparedPage {
  title: string
  type: string
  compiledTruth: string
  timeline: string
  frontmatter: Record<string, unknown>
  tags: string[]
  language: CodeLanguage | null
}

export function validateContent(slug: string, content: string): void {
  const bytes = Buffer.byteLength(content, 'utf8')
  if (bytes > MAX_PAGE_BYTES) {
    throw new ValidationError('page_too_large', `${slug} is ${(bytes / 1048576).toFixed(1)} MiB; pages are limited to ${MAX_PAGE_BYTES / 1048576} MiB.`, {
      hint: 'Split the file, or exclude it from the source.',
    })
  }
  if (content.includes('\u0000')) {
    throw new ValidationError('NULL_BYTES', `${slug} contains NUL bytes (binary data?).`, {
      hint: 'Remove the NUL bytes (`brain frontmatter validate --fix` repairs them in markdown files), or exclude the file.',
    })
  }
}

export function prepare(input: ImportInput, slug: string): PreparedPage {
  if (input.kind === 'markdown') {
    const parsed = parseMarkdownPage(input.content, slug, input.path, input.journalFormats)
    return { ...parsed, language: null }
  }
  const path = input.path ?? slug
  const language = languageForPath(path)
  return {
    title: path,
    type: 'code',
    compiledTruth: input.content,
    timeline: '',
    frontmatter: { path, language },
    tags: [],
    language,
  }
}

export async function chunk(input: ImportInput, page: PreparedPage, slug: string, options: ImportOptions, calls: CallSiteCollector): Promise<ChunkDraft[]> {
  if (input.kind === 'code') {
    return chunkCode({ path: input.path ?? slug, content: page.compiledTruth, language: page.language, chunkSizeTokens: options.chunkSizeTokens, onTree: calls.onTree })
  }
  const drafts = await chunkMarkdown({
    compiledTruth: page.compiledTruth,
    timeline: page.timeline,
    chunkSizeTokens: options.chunkSizeTokens,
    maxFences: options.maxFences,
    onFenceError: (err, index) => options.onWarning?.(`${slug}: fence ${index} skipped (${err instanceof Error ? err.message : String(err)})`),
  })
  if (page.frontmatter.source_format === 'pdf') labelPdfPages(drafts, page.compiledTruth)
  return drafts
}

/** The page row a write stores: its content, provenance, writer and line changes. */
export function pageWrite(
  input: ImportInput,
  prepared: { slug: string; sourceId: string; page: PreparedPage; contentHash: string },
  changes: { linesAdded: number | null; linesRemoved: number | null },
): PageWrite {
  const provenance = input.provenance ?? {}
  const { page } = prepared
  return {
    sourceId: prepared.sourceId,
    slug: prepared.slug,
    title: page.title,
    type: page.type,
    pageKind: input.kind,
    compiledTruth: page.compiledTruth,
    timeline: page.timeline,
    frontmatter: page.frontmatter,
    contentHash: prepared.contentHash,
    ingestedVia: provenance.ingestedVia ?? null,
    ingestedAt: provenance.ingestedAt ?? (provenance.ingestedVia ? new Date() : null),
    sourceUri: provenance.sourceUri ?? null,
    sourceKind: provenance.sourceKind ?? null,
    writtenVia: input.writtenVia ?? provenance.ingestedVia ?? (provenance.sourceKind === 'sync' ? 'sync' : 'import'),
    writtenBy: input.writtenBy ?? null,
    linesAdded: changes.linesAdded,
    linesRemoved: changes.linesRemoved,
  }
}

/** Runs the write transaction, turning a page of an unknown source into a clear error. */
export async function writePage<T>(db: Database, sourceId: string, write: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(write)
    } catch (err) {
      if (isSqlStateError(err) && err.code === FOREIGN_KEY_VIOLATION && err.constraint === 'pages_source_id_fkey') {
        throw new NotFoundError('source_not_found', `No source "${sourceId}".`, { hint: 'List sources with `brain sources list`, or add one with `brain sources add`.', cause: err })
      }
      // Concurrent writers share the keyword statistics rows, so one of two crossing page writes
      // can be chosen as a deadlock victim; the transaction rolled back whole and is safe to rerun.
      if (isSqlStateError(err) && RETRYABLE.has(err.code) && attempt < MAX_WRITE_ATTEMPTS) continue
      throw err
    }
  }
}

const FOREIGN_KEY_VIOLATION = '23503'
const RETRYABLE = new Set(['40P01', '40001'])
const MAX_WRITE_ATTEMPTS = 4

/** The hash of the text that counts as this same content (`unchangedAs`), or of the content itself. */
export function equivalentHash(input: ImportInput, slug: string): string {
  const page = prepare({ ...input, content: input.unchangedAs ?? input.content }, slug)
  return computePageContentHash({ ...page, pageKind: input.kind, chunkerVersion: CHUNKER_VERSION })
}

/**
 * The one import path for every writer (put, capture, sync, import, ingest). Identical content
 * is `skipped` with no write; otherwise page, tags, chunks, their call edges and (markdown)
 * citation links are written in one transaction.
 */
export async function importPage(db: Database, input: ImportInput, options: ImportOptions = {}): Promise<ImportResult> {
  const slug = normalizeSlug(input.slug)
  const sourceId = input.sourceId ?? DEFAULT_SOURCE_ID
  validateContent(slug, input.content)
  const page = prepare(input, slug)
  const contentHash = computePageContentHash({ ...page, pageKind: input.kind, chunkerVersion: CHUNKER_VERSION })
  const existing = await findPageHash(db, sourceId, slug)
  const base = { slug, sourceId, contentHash, pageKind: input.kind, embedded: 0, embedError: null }
  if (existing && (existing.contentHash === contentHash || (input.unchangedAs !== undefined && existing.contentHash === equivalentHash(input, slug)))) {
    return { ...base, status: 'skipped', pageId: existing.id, chunks: 0 }
  }
  if (options.dryRun) {
    return { ...base, status: existing ? 'updated' : 'created', pageId: existing?.id ?? 0, chunks: 0 }
  }
  const calls = new CallSiteCollector()
  const drafts = await chunk(input, page, slug, options, calls)
  const codeGraph = calls.graph(drafts)
  const written = await writePage(db, sourceId, async (tx) => {
    const changes = await recordWrite(tx, existing?.id ?? null, { ...page, pageKind: input.kind }, options.keepVersions !== false)
    const { id, created } = await upsertPage(tx, pageWrite(input, { slug, sourceId, page, contentHash }, changes))
    await replaceTags(tx, id, page.tags)
    await upsertChunks(tx, id, drafts)
    if (input.kind === 'code' || !created) await replacePageCodeGraph(tx, id, sourceId, codeGraph, created)
    if (input.kind === 'markdown') {
      await linkImportedMarkdown(tx, { id, slug, sourceId }, { ...page, content: input.content }, { isNewPage: created, derived: options.autoLink !== false })
    }
    return { id, created }
  })
  const result: ImportResult = { ...base, status: written.created ? 'created' : 'updated', pageId: written.id, chunks: drafts.length }
  if (options.embedder) {
    const pending = await pendingChunksOfPages(db, [written.id])
    const embedded = await embedAndStore(db, options.embedder, pending, options.signal)
    result.embedded = embedded.embedded
    result.embedError = embedded.error
  }
  return result
}
