import type { Database } from '../db/types.js'
import type { EmbeddingProvider } from '../embedding/index.js'
import { documentSlugForPath, importDocument } from '../import/import-documents.js'
import type { ImportStatus } from '../pages/index.js'

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
  writeThrough: { written: false; path: null; reason: 'converted_document' }
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
    { bytes: request.bytes, name: base, contentType: request.contentType, url: request.url, fetchedAt: request.fetchedAt, sourceId: request.sourceId ?? 'default', sourceUri, sourceKind: 'capture', slug, slugPrefix: undefined, writtenVia: request.writtenVia, writtenBy: request.writtenBy },
    { embedder: request.embedder, maxFences: request.maxFences, autoLink: request.autoLink, beforeWrite: request.checkSlug },
  )
  const pages = result.pages.map((p) => ({ slug: p.slug, status: p.status }))
  const first = result.pages[0]
  const { findPage } = await import('../pages/index.js')
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
    writeThrough: { written: false, path: null, reason: 'converted_document' },
  }
}

/** The first page an unchanged capture wrote before. */
async function existingSlug(db: Database, sourceId: string, sourceUri: string): Promise<string | undefined> {
  const { rows } = await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE source_id = $1 AND source_uri = $2 ORDER BY slug LIMIT 1`, [sourceId, sourceUri])
  return rows[0]?.slug
}
