import type { Database } from '../../db/index.js'
import type { EmbeddingProvider } from '../../embedding/index.js'
import { documentSlugForPath, importDocument } from '../import/import-documents.js'
import type { ImportStatus, WriteThroughResult } from '../../pages/index.js'

export interface DocumentCaptureRequest {
  bytes: Uint8Array
  /** The file's name (format detection, default slug, last-resort title). */
  name: string
  contentType?: string
  url?: string
  fetchedAt?: string
  /** Slug of a one-page document; default `inbox/<file name>`. */
  slug?: string
  /** Provenance; also what recognises the same file captured again (default: the file name). */
  source?: string
  sourceId?: string
  embedder: EmbeddingProvider | null
  maxFences?: number
  writtenVia: string
  writtenBy?: string | null
  /** Refuses a slug before anything is written (remote writers' prefixes). */
  checkSlug?: (slug: string) => void
  /** Untrusted writers get no derived links. */
  autoLink?: boolean
  /**
   * Where converted pages are mirrored as markdown files (`sync.repo_path`), as `put` does;
   * `sandboxed` for an untrusted writer without a slug allowlist. Unset: no mirror.
   */
  writeThrough?: { repoPath: string | null; sandboxed: boolean }
}

export interface DocumentCaptureReceipt {
  slug: string
  status: ImportStatus
  contentHash: string
  title: string
  wrapped: false
  format: string | null
  pages: { slug: string; status: ImportStatus }[]
  counts: Record<string, number>
  /** The first page's file; every page of the document is written the same way. */
  writeThrough: WriteThroughResult
  /** How many of the document's pages were written to files. */
  filesWritten: number
}

/**
 * A document file (PDF, chat export, …) captured through its converter: the pages it yields are
 * written like an import's, and the receipt names the first. Capturing the same bytes from the
 * same source again is `skipped`.
 */
export async function captureDocument(db: Database, request: DocumentCaptureRequest): Promise<DocumentCaptureReceipt> {
  const base = request.name.slice(request.name.lastIndexOf('/') + 1)
  const sourceUri = request.source ?? base
  const slug = request.slug ?? `inbox/${documentSlugForPath(base)}`
  request.checkSlug?.(slug)
  const result = await importDocument(
    db,
    {
      bytes: request.bytes,
      name: base,
      contentType: request.contentType,
      url: request.url,
      fetchedAt: request.fetchedAt,
      sourceId: request.sourceId ?? 'default',
      sourceUri,
      sourceKind: 'capture',
      slug,
      slugPrefix: undefined,
      writtenVia: request.writtenVia,
      writtenBy: request.writtenBy,
    },
    { embedder: request.embedder, maxFences: request.maxFences, autoLink: request.autoLink, beforeWrite: request.checkSlug },
  )
  const pages = result.pages.map((p) => ({ slug: p.slug, status: p.status }))
  const first = result.pages[0]
  const { findPage } = await import('../../pages/index.js')
  const firstSlug = first?.slug ?? (await existingSlug(db, request.sourceId ?? 'default', sourceUri)) ?? slug
  const page = await findPage(db, request.sourceId ?? 'default', firstSlug)
  return {
    slug: firstSlug,
    status: first?.status ?? 'skipped',
    contentHash: first?.contentHash ?? page?.contentHash ?? '',
    title: page?.title ?? base,
    wrapped: false,
    format: result.format,
    pages,
    counts: result.counts,
    ...(await mirrorPages(db, request, result.pages.length > 0 ? result.pages.map((p) => p.slug) : [firstSlug])),
  }
}

/** Writes each converted page to `sync.repo_path` like `put` writes a page, so the files hold what the brain holds. */
async function mirrorPages(db: Database, request: DocumentCaptureRequest, slugs: readonly string[]): Promise<{ writeThrough: WriteThroughResult; filesWritten: number }> {
  const target = request.writeThrough
  if (!target || target.repoPath === null) return { writeThrough: { written: false, path: null, reason: 'repo_path_unset' }, filesWritten: 0 }
  if (target.sandboxed) return { writeThrough: { written: false, path: null, reason: 'sandboxed' }, filesWritten: 0 }
  const { findPage, serializePage, writePageFile } = await import('../../pages/index.js')
  const sourceId = request.sourceId ?? 'default'
  let first: WriteThroughResult | null = null
  let filesWritten = 0
  for (const slug of slugs) {
    const page = await findPage(db, sourceId, slug)
    if (!page) continue
    const written = await writePageFile(target.repoPath, sourceId, slug, serializePage(page))
    first ??= written
    if (written.written) filesWritten++
  }
  return { writeThrough: first ?? { written: false, path: null, reason: 'repo_path_unset' }, filesWritten }
}

/** The first page an unchanged capture wrote before. */
async function existingSlug(db: Database, sourceId: string, sourceUri: string): Promise<string | undefined> {
  const { rows } = await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE source_id = $1 AND source_uri = $2 ORDER BY slug LIMIT 1`, [sourceId, sourceUri])
  return rows[0]?.slug
}
