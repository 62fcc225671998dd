import type { Database } from '../db/types.js'
import { convertBounded, hashBytes, renderDraft, SINGLE_PAGE_FORMATS, type ConvertLimits, type ConvertResult } from '../convert/index.js'
import { hasPagesWithSourceHash, importPage, markdownSlugForPath, normalizeSlug, type ImportOptions, type ImportResult } from '../pages/index.js'

export interface DocumentInput {
  bytes: Uint8Array
  /** The file's name or path (format detection, last-resort title). */
  name: string
  contentType?: string
  /** A fetched document's final URL and fetch time, for its front matter. */
  url?: string
  fetchedAt?: string
  sourceId: string
  /** Provenance: the file's path or URL; an unchanged file is recognised by it and its hash. */
  sourceUri: string
  sourceKind: string
  /** Slug of a one-page document (PDF, docx, web page); default: from `name` without its extension. */
  slug?: string
  /** Prefix for the pages of a many-page document (chat export, mailbox); default none. */
  slugPrefix?: string
  writtenVia?: string
  writtenBy?: string | null
}

export interface DocumentResult {
  /** null when the file was unchanged and not converted again. */
  format: ConvertResult['format'] | null
  sourceHash: string
  pages: ImportResult[]
  counts: Record<string, number>
  /** True when the same bytes were already imported from this source URI. */
  unchanged: boolean
}

/** The slug of a one-page document from its path: `papers/Deep Nets.pdf` → `papers/deep-nets`. */
export function documentSlugForPath(path: string): string {
  return markdownSlugForPath(path.replace(/\.[A-Za-z0-9]{1,8}$/, ''))
}

/**
 * One document file through a converter (in a bounded worker) and the page pipeline: each draft
 * becomes a markdown page recording `source_format` and the original file's `source_hash`.
 * The same bytes from the same source URI are a no-op; changed bytes update the same slugs.
 */
export interface DocumentImportOptions extends ImportOptions {
  limits?: ConvertLimits
  /** Sees every slug before any page is written; throws to refuse the whole document. */
  beforeWrite?: (slug: string) => void
}

export async function importDocument(db: Database, input: DocumentInput, options: DocumentImportOptions = {}): Promise<DocumentResult> {
  const sourceHash = hashBytes(input.bytes)
  if (await hasPagesWithSourceHash(db, input.sourceId, input.sourceUri, sourceHash)) {
    return { format: null, sourceHash, pages: [], counts: {}, unchanged: true }
  }
  const converted = await convertBounded({ bytes: input.bytes, name: input.name, contentType: input.contentType, url: input.url, fetchedAt: input.fetchedAt }, options.limits)
  const single = SINGLE_PAGE_FORMATS.has(converted.format) && converted.drafts.length === 1
  const slugs = converted.drafts.map((draft) =>
    single ? normalizeSlug(input.slug ?? documentSlugForPath(input.name)) : normalizeSlug(input.slugPrefix ? `${input.slugPrefix}/${draft.slugHint}` : draft.slugHint),
  )
  if (options.beforeWrite) slugs.forEach(options.beforeWrite)
  const pages: ImportResult[] = []
  for (const [i, draft] of converted.drafts.entries()) {
    const slug = slugs[i]!
    const content = renderDraft({ ...draft, frontmatter: { ...draft.frontmatter, source_format: converted.format } }, sourceHash)
    pages.push(
      await importPage(
        db,
        {
          slug,
          sourceId: input.sourceId,
          kind: 'markdown',
          content,
          provenance: { sourceUri: input.sourceUri, sourceKind: input.sourceKind },
          writtenVia: input.writtenVia,
          writtenBy: input.writtenBy,
        },
        options,
      ),
    )
  }
  return { format: converted.format, sourceHash, pages, counts: converted.counts, unchanged: false }
}
