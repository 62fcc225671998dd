/**
 * reconcile-links and the extract job: re-derive every kind of link from the stored markdown
 * pages. Citations and mentions are added where missing (existing ones kept); explicit links are
 * parsed for pages stored before they were recorded, and every explicit link is resolved again.
 * Running either twice changes nothing the second time.
 */
import { readConfigValue } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { pageCitations } from './citations.js'
import { entityNames, replaceMentionLinks } from './mentions.js'
import { noteLinks } from './note-links.js'
import { replaceNoteLinks } from './note-repository.js'
import { addCitationLinks, countMissingCitationLinks, type MarkdownPageRef } from './repository.js'

export interface ReconcileOptions {
  /** Count what would be added without writing. */
  dryRun?: boolean
  /** Only these slugs (markdown pages, and markdown pages citing these code pages); all pages when absent. */
  slugs?: readonly string[]
  sourceId?: string
  signal?: AbortSignal
}

export interface ReconcileKinds {
  citations: { references: number; added: number; targetsMissing: number }
  mentions: { found: number; added: number }
  /** Pages whose explicit links were parsed now, links stored for them, links whose target changed. */
  explicit: { pagesBackfilled: number; stored: number; reresolved: number; unresolved: number }
}

/** What reconciling did to the links of one link type. */
export interface LinkTypeCounts {
  /** links_to, embeds, mentions, documents, documented_by, a front-matter property's name, … */
  linkType: string
  /** Links added (or, in a dry run, that would be). */
  added: number
  /** Explicit links whose target changed (or would) when resolved again. */
  reresolved: number
  /** Explicit links that still resolve to no page. */
  unresolved: number
}

export interface ReconcileResult {
  status: 'ok' | 'auto_link_disabled'
  dryRun: boolean
  /** Markdown pages read. */
  pagesScanned: number
  /** Distinct (page, path) citations found. */
  references: number
  /** Links added (or, in a dry run, that would be), every kind, both directions of citations counted. */
  linksAdded: number
  /** Cited paths with no code page: skipped, not an error. */
  edgesTargetsMissing: number
  kinds: ReconcileKinds
  /** The same counts by link type, every type that had any, by name. */
  linkTypes: LinkTypeCounts[]
}

type TypeTally = Map<string, LinkTypeCounts>

function tally(types: TypeTally, linkType: string, counts: Partial<Omit<LinkTypeCounts, 'linkType'>>): void {
  const entry = types.get(linkType) ?? { linkType, added: 0, reresolved: 0, unresolved: 0 }
  entry.added += counts.added ?? 0
  entry.reresolved += counts.reresolved ?? 0
  entry.unresolved += counts.unresolved ?? 0
  types.set(linkType, entry)
}

function listed(types: TypeTally): LinkTypeCounts[] {
  return [...types.values()].filter((c) => c.added + c.reresolved + c.unresolved > 0).sort((a, b) => (a.linkType < b.linkType ? -1 : a.linkType > b.linkType ? 1 : 0))
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
  frontmatter: Record<string, unknown>
  has_explicit: boolean
}

/** Markdown pages to scan, in id order after `afterId`. */
async function markdownBatch(db: SqlExecutor, afterId: number, options: ReconcileOptions): Promise<MarkdownRow[]> {
  const slugs = options.slugs ? [...options.slugs] : null
  const { rows } = await db.query<MarkdownRow>(
    `SELECT p.id, p.slug, p.source_id, p.compiled_truth, p.timeline, p.frontmatter,
            EXISTS (SELECT 1 FROM links l WHERE l.from_page_id = p.id AND l.target_text IS NOT NULL) AS has_explicit
     FROM pages p
     WHERE p.page_kind = 'markdown' AND p.id > $1
       AND ($2::text IS NULL OR p.source_id = $2)
       AND ($3::text[] IS NULL OR p.slug = ANY($3::text[]) OR EXISTS (
             SELECT 1 FROM unnest($3::text[]) AS s(slug)
             WHERE strpos(p.compiled_truth, s.slug) > 0 OR strpos(p.timeline, s.slug) > 0))
     ORDER BY p.id LIMIT $4`,
    [afterId, options.sourceId ?? null, slugs, BATCH],
  )
  return rows
}

/** The page's text as stored (front matter aside): line numbers count from its body. */
function storedBody(row: MarkdownRow): string {
  return row.timeline === '' ? row.compiled_truth : `${row.compiled_truth}\n\n## Timeline\n\n${row.timeline}`
}

function emptyResult(dryRun: boolean): ReconcileResult {
  return {
    status: 'ok',
    dryRun,
    pagesScanned: 0,
    references: 0,
    linksAdded: 0,
    edgesTargetsMissing: 0,
    kinds: { citations: { references: 0, added: 0, targetsMissing: 0 }, mentions: { found: 0, added: 0 }, explicit: { pagesBackfilled: 0, stored: 0, reresolved: 0, unresolved: 0 } },
    linkTypes: [],
  }
}

async function derivePage(db: SqlExecutor, row: MarkdownRow, names: ReadonlyMap<string, number>, dryRun: boolean, kinds: ReconcileKinds, types: TypeTally): Promise<void> {
  const page: MarkdownPageRef = { id: Number(row.id), slug: row.slug, sourceId: row.source_id }
  const body = storedBody(row)
  const citations = pageCitations(row.compiled_truth, row.timeline)
  const counts = dryRun ? await countMissingCitationLinks(db, page, citations) : await addCitationLinks(db, page, citations)
  kinds.citations.references += counts.cited
  kinds.citations.added += counts.added
  kinds.citations.targetsMissing += counts.cited - counts.found
  tally(types, 'documents', { added: counts.documents })
  tally(types, 'documented_by', { added: counts.documentedBy })
  const mentions = await replaceMentionLinks(db, page, body, names, { isNewPage: false, dryRun, keepPlaces: true })
  kinds.mentions.found += mentions.found
  kinds.mentions.added += mentions.added
  tally(types, 'mentions', { added: mentions.added })
  if (row.has_explicit) return
  const explicit = noteLinks(body, row.frontmatter ?? {}, row.slug)
  if (explicit.length === 0) return
  kinds.explicit.pagesBackfilled++
  kinds.explicit.stored += dryRun ? explicit.length : (await replaceNoteLinks(db, page, explicit, true)).stored
  // Every draft is stored (no conflict clause), so the drafts' types are the stored links' types.
  for (const link of explicit) tally(types, link.type, { added: 1 })
}

/** Resolves every explicit link again; counts, by link type, those that now point elsewhere and those that stay unresolved. */
async function reresolve(db: SqlExecutor, options: ReconcileOptions, dryRun: boolean, types: TypeTally): Promise<{ changed: number; unresolved: number }> {
  const scope = `FROM links l JOIN pages f ON f.id = l.from_page_id
    CROSS JOIN LATERAL (SELECT brain_resolve_link(f.source_id, l.target_key, l.target_rel_key, l.target_text, NULL) AS id) r
    WHERE l.target_text IS NOT NULL AND ($1::text IS NULL OR f.source_id = $1) AND ($2::text[] IS NULL OR f.slug = ANY($2::text[]))`
  const params = [options.sourceId ?? null, options.slugs ? [...options.slugs] : null]
  const { rows } = await db.query<{ link_type: string; changed: number; unresolved: number }>(
    `SELECT l.link_type, count(*) FILTER (WHERE r.id IS DISTINCT FROM l.to_page_id) AS changed, count(*) FILTER (WHERE r.id IS NULL) AS unresolved ${scope} GROUP BY l.link_type`,
    params,
  )
  let changed = 0
  let unresolved = 0
  for (const row of rows) {
    changed += Number(row.changed)
    unresolved += Number(row.unresolved)
    tally(types, row.link_type, { reresolved: Number(row.changed), unresolved: Number(row.unresolved) })
  }
  if (!dryRun && changed > 0) {
    await db.query(`UPDATE links u SET to_page_id = x.id FROM (SELECT l.id AS link, r.id ${scope} AND r.id IS DISTINCT FROM l.to_page_id) x WHERE u.id = x.link`, params)
  }
  return { changed, unresolved }
}

export async function deriveLinks(db: SqlExecutor, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const dryRun = options.dryRun === true
  const result = emptyResult(dryRun)
  if (options.slugs !== undefined && options.slugs.length === 0) return result
  if (!(await autoLinkEnabled(db))) return { ...result, status: 'auto_link_disabled' }
  const names = await entityNames(db)
  const kinds = result.kinds
  const types: TypeTally = new Map()
  let afterId = 0
  for (;;) {
    options.signal?.throwIfAborted()
    const rows = await markdownBatch(db, afterId, options)
    for (const row of rows) {
      await derivePage(db, row, names, dryRun, kinds, types)
      result.pagesScanned++
    }
    if (rows.length < BATCH) break
    afterId = Number(rows[rows.length - 1]!.id)
  }
  const again = await reresolve(db, options, dryRun, types)
  kinds.explicit.reresolved = again.changed
  kinds.explicit.unresolved = again.unresolved
  result.references = kinds.citations.references
  result.edgesTargetsMissing = kinds.citations.targetsMissing
  result.linksAdded = kinds.citations.added + kinds.mentions.added + kinds.explicit.stored
  result.linkTypes = listed(types)
  return result
}

/** `reconcile-links`: every markdown page; the config is that of the brain being reconciled. */
export async function reconcileLinks(db: SqlExecutor, _config: unknown, options: { dryRun?: boolean; signal?: AbortSignal } = {}): Promise<ReconcileResult> {
  return deriveLinks(db, { dryRun: options.dryRun, signal: options.signal })
}
