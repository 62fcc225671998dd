import type { Database } from '../../db/index.js'
import { convertBounded, hashBytes, hashFiles, renderDraft, SINGLE_PAGE_FORMATS, type ConvertLimits, type ConvertResult, type PageDraft } from '../../convert/index.js'
import { isBrainError } from '../../errors/index.js'
import { trashPages } from '../../history/index.js'
import { importPage, isSourceHashCurrent, markdownSlugForPath, normalizeSlug, sourceHashesBySlug, type ImportInput, type ImportOptions, type ImportResult } from '../../pages/index.js'

export interface DocumentInput {
  bytes: Uint8Array
  /** An export unpacked into a folder: its files by path inside it (see ConvertInput). */
  files?: Record<string, Uint8Array>
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
  /** Pages an earlier version of this file made that it no longer holds, moved to the trash (with `removeMissing`). */
  removed: string[]
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
  /**
   * The file is known by its path: pages an earlier version of it made (same source and source
   * URI) that this version no longer holds — a conversation or message taken out of an export —
   * move to the trash.
   */
  removeMissing?: boolean
  /** Refuse HTML pages that ask not to be indexed (see ConvertInput). */
  refuseNoindex?: boolean
}

/**
 * Refusals that say a file is no content of its own, rather than that it could not be read, and
 * the name a folder import counts them under.
 */
export const NOT_CONTENT: ReadonlyMap<string, string> = new Map([
  ['convert_redirect', 'redirects'],
  ['convert_noindex', 'noindex'],
  ['convert_trashed', 'trashed'],
  ['convert_copy', 'copies'],
])

export async function importDocument(db: Database, input: DocumentInput, options: DocumentImportOptions = {}): Promise<DocumentResult> {
  const sourceHash = input.files === undefined ? hashBytes(input.bytes) : hashFiles(input.files)
  if (await isSourceHashCurrent(db, input.sourceId, input.sourceUri, sourceHash)) {
    return { format: null, sourceHash, pages: [], counts: {}, unchanged: true, removed: [] }
  }
  let converted: ConvertResult
  try {
    converted = await convertBounded(
      { bytes: input.bytes, files: input.files, name: input.name, contentType: input.contentType, url: input.url, fetchedAt: input.fetchedAt, refuseNoindex: options.refuseNoindex },
      options.limits,
    )
  } catch (err) {
    // A file that is no content of its own any more (now a redirect, or asking not to be
    // indexed) leaves no page behind: what an earlier version of it made moves to the trash.
    if (options.removeMissing && isBrainError(err) && NOT_CONTENT.has(err.code)) await trashPagesLeftBehind(db, input, [])
    throw err
  }
  const single = SINGLE_PAGE_FORMATS.has(converted.format) && converted.drafts.length === 1
  const slugs = converted.drafts.map((draft) =>
    single ? normalizeSlug(input.slug ?? documentSlugForPath(input.name)) : normalizeSlug(input.slugPrefix ? `${input.slugPrefix}/${draft.slugHint}` : draft.slugHint),
  )
  if (options.beforeWrite) slugs.forEach(options.beforeWrite)
  // A new version of a many-page file (a chat export a month longer) leaves most of its pages as
  // they were: those keep their text and the hash of the version that wrote them.
  const earlier = single ? new Map<string, string>() : await sourceHashesBySlug(db, input.sourceId, input.sourceUri)
  const write = (i: number, keepUnchanged: boolean): Promise<ImportResult> =>
    writeDraft(db, input, { format: converted.format, draft: converted.drafts[i]!, slug: slugs[i]!, sourceHash, earlierHash: keepUnchanged ? earlier.get(slugs[i]!) : undefined }, options)
  const pages: ImportResult[] = []
  for (const i of converted.drafts.keys()) pages.push(await write(i, true))
  // A version that changed no page (it only dropped some) still stamps its hash on one, so that
  // importing it again is seen as unchanged (`isSourceHashCurrent`).
  if (earlier.size > 0 && pages.length > 0 && pages.every((p) => p.status === 'skipped') && !options.dryRun) pages[0] = await write(0, false)
  const removed = options.removeMissing ? await trashPagesLeftBehind(db, input, slugs) : []
  return { format: converted.format, sourceHash, pages, counts: converted.counts, unchanged: false, removed }
}

/** One draft of a converted document, where it goes, and the hash the page it replaces carries. */
export interface DraftWrite {
  format: ConvertResult['format']
  draft: PageDraft
  slug: string
  sourceHash: string
  /** The `source_hash` of the page this draft rewrites: an unchanged page keeps it. */
  earlierHash?: string
}

/** One draft as a markdown page recording its format and the original file's hash. */
export function writeDraft(db: Database, input: DocumentInput, write: DraftWrite, options: DocumentImportOptions): Promise<ImportResult> {
  return importPage(db, draftInput(input, write), options)
}

/** What the page pipeline is given for one draft: the page writeDraft writes. */
export function draftInput(input: DocumentInput, { format, draft, slug, sourceHash, earlierHash }: DraftWrite): ImportInput {
  const withFormat = { ...draft, frontmatter: { ...draft.frontmatter, source_format: format } }
  return {
    slug,
    sourceId: input.sourceId,
    kind: 'markdown',
    content: renderDraft(withFormat, sourceHash),
    provenance: { sourceUri: input.sourceUri, sourceKind: input.sourceKind },
    writtenVia: input.writtenVia,
    writtenBy: input.writtenBy,
    unchangedAs: earlierHash === undefined || earlierHash === sourceHash ? undefined : renderDraft(withFormat, earlierHash),
  }
}

/** Pages converted from this file that its new version no longer holds (by slug). */
export async function trashPagesLeftBehind(db: Database, input: DocumentInput, keptSlugs: readonly string[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(`SELECT id FROM pages WHERE source_id = $1 AND source_uri = $2 AND frontmatter ? 'source_hash' AND NOT (slug = ANY($3::text[]))`, [
      input.sourceId,
      input.sourceUri,
      keptSlugs,
    ])
    const trashed = await trashPages(
      tx,
      rows.map((r) => Number(r.id)),
      { via: input.writtenVia ?? 'import' },
    )
    return trashed.map((entry) => entry.slug).sort()
  })
}
