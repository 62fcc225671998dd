import type { Database } from '../../db/index.js'
import { captureDocument, type DocumentCaptureReceipt, type DocumentCaptureRequest } from './capture-document.js'
import { fetchUrl, webSlugForUrl, type FetchOptions } from './fetch-url.js'

/** A document capture whose bytes, name and provenance come from fetching `url`. */
export interface UrlCaptureRequest extends FetchOptions, Pick<DocumentCaptureRequest, 'slug' | 'embedder' | 'maxFences' | 'writtenVia' | 'writtenBy' | 'checkSlug' | 'autoLink' | 'writeThrough'> {
  url: string
}

/** A file name for the converter's choice when the response's type says little (`.../paper.pdf`). */
function nameForUrl(url: string): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).pop()
  return last ? decodeURIComponent(last) : 'index.html'
}

/**
 * `capture --url`: fetch behind the address guard, convert by the response's content type (HTML,
 * PDF, plain text, markdown) and write `web/<host>/<path>`. The URL is the page's source, so
 * capturing it again is skipped when the bytes are the same and updates the page when not.
 */
export async function captureUrl(db: Database, request: UrlCaptureRequest): Promise<DocumentCaptureReceipt & { url: string }> {
  const slug = request.slug ?? webSlugForUrl(request.url)
  request.checkSlug?.(slug)
  const fetched = await fetchUrl(request.url, request)
  const receipt = await captureDocument(db, {
    bytes: fetched.bytes,
    name: nameForUrl(fetched.url),
    contentType: fetched.contentType,
    url: fetched.url,
    fetchedAt: fetched.fetchedAt,
    slug,
    source: request.url,
    embedder: request.embedder,
    maxFences: request.maxFences,
    writtenVia: request.writtenVia,
    writtenBy: request.writtenBy,
    checkSlug: request.checkSlug,
    autoLink: request.autoLink,
    writeThrough: request.writeThrough,
  })
  return { ...receipt, url: fetched.url }
}
