/**
 * reconcile-links and the extract job: (re)derive citation links from markdown pages. Adding is
 * idempotent (existing links are kept), so running either twice changes nothing the second time.
 */
import { readConfigValue } from '../config/db-config.js'
import type { SqlExecutor } from '../db/types.js'
import { pageCitations } from './citations.js'
import { addCitationLinks, countMissingCitationLinks, type MarkdownPageRef } from './repository.js'

export interface ReconcileOptions {
  /** Count what would be added without writing. */
  dryRun?: boolean
  /** Only these slugs (markdown pages, and markdown pages citing these code pages); all pages when absent. */
  slugs?: readonly string[]
  sourceId?: string
  signal?: AbortSignal
}

export interface ReconcileResult {
  status: 'ok' | 'auto_link_disabled'
  dryRun: boolean
  /** Markdown pages read. */
  pagesScanned: number
  /** Distinct (page, path) citations found. */
  references: number
  /** Links added (or, in a dry run, that would be), both directions counted. */
  linksAdded: number
  /** Cited paths with no code page: skipped, not an error. */
  edgesTargetsMissing: number
}

const BATCH = 500

/** auto_link is on unless set to false. */
export async function autoLinkEnabled(db: SqlExecutor): Promise<boolean> {
  const value = await readConfigValue(db, 'auto_link')
  return value === null || value.trim().toLowerCase() !== 'false'
}

interface MarkdownRow {
  id: number
  slug: string
  source_id: string
  compiled_truth: string
  timeline: string
}

/** Markdown pages to scan, in id order after `afterId`. */
async function markdownBatch(db: SqlExecutor, afterId: number, options: ReconcileOptions): Promise<MarkdownRow[]> {
  const slugs = options.slugs ? [...options.slugs] : null
  const { rows } = await db.query<MarkdownRow>(
    `SELECT p.id, p.slug, p.source_id, p.compiled_truth, p.timeline FROM pages p
     WHERE p.page_kind = 'markdown' AND p.id > $1
       AND ($2::text IS NULL OR p.source_id = $2)
       AND (p.compiled_truth LIKE '%/%' OR p.timeline LIKE '%/%')
       AND ($3::text[] IS NULL OR p.slug = ANY($3::text[]) OR EXISTS (
             SELECT 1 FROM unnest($3::text[]) AS s(slug)
             WHERE strpos(p.compiled_truth, s.slug) > 0 OR strpos(p.timeline, s.slug) > 0))
     ORDER BY p.id LIMIT $4`,
    [afterId, options.sourceId ?? null, slugs, BATCH],
  )
  return rows
}

export async function deriveLinks(db: SqlExecutor, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const dryRun = options.dryRun === true
  const result: ReconcileResult = { status: 'ok', dryRun, pagesScanned: 0, references: 0, linksAdded: 0, edgesTargetsMissing: 0 }
  if (options.slugs !== undefined && options.slugs.length === 0) return result
  if (!(await autoLinkEnabled(db))) return { ...result, status: 'auto_link_disabled' }
  let afterId = 0
  for (;;) {
    options.signal?.throwIfAborted()
    const rows = await markdownBatch(db, afterId, options)
    for (const row of rows) {
      const page: MarkdownPageRef = { id: Number(row.id), slug: row.slug, sourceId: row.source_id }
      const citations = pageCitations(row.compiled_truth, row.timeline)
      const counts = dryRun ? await countMissingCitationLinks(db, page, citations) : await addCitationLinks(db, page, citations)
      result.pagesScanned++
      result.references += counts.cited
      result.linksAdded += counts.added
      result.edgesTargetsMissing += counts.cited - counts.found
    }
    if (rows.length < BATCH) break
    afterId = Number(rows[rows.length - 1]!.id)
  }
  return result
}

/** `reconcile-links`: every markdown page; the config is that of the brain being reconciled. */
export async function reconcileLinks(db: SqlExecutor, _config: unknown, options: { dryRun?: boolean; signal?: AbortSignal } = {}): Promise<ReconcileResult> {
  return deriveLinks(db, { dryRun: options.dryRun, signal: options.signal })
}
