import type { SqlExecutor } from '../db/index.js'

/** A page's content as a version keeps it: what an export serialises. */
export interface VersionContent {
  title: string
  type: string
  pageKind: 'markdown' | 'code'
  frontmatter: Record<string, unknown>
  compiledTruth: string
  timeline: string
  tags: string[]
}

export interface VersionSummary {
  number: number
  contentHash: string
  writtenAt: Date
  writtenVia: string | null
  writtenBy: string | null
  replacedAt: Date
  /** Bytes of the body (compiled truth and timeline). */
  bytes: number
  linesAdded: number
  linesRemoved: number
}

export interface PageVersion extends VersionSummary {
  pageId: number
  sourceId: string
  slug: string
  content: VersionContent
}

interface VersionRow {
  page_id: number
  source_id: string
  slug: string
  number: number
  content_hash: string
  written_at: Date
  written_via: string | null
  written_by: string | null
  replaced_at: Date
  bytes: number
  lines_added: number
  lines_removed: number
}

interface ContentRow {
  title: string
  type: string
  page_kind: 'markdown' | 'code'
  frontmatter: Record<string, unknown> | null
  compiled_truth: string
  timeline: string
  tags: string[] | null
}

const SUMMARY_COLUMNS = 'page_id, source_id, slug, number, content_hash, written_at, written_via, written_by, replaced_at, bytes, lines_added, lines_removed'
const CONTENT_COLUMNS = 'title, type, page_kind, frontmatter, compiled_truth, timeline, tags'

function toSummary(row: VersionRow): VersionSummary {
  return {
    number: row.number,
    contentHash: row.content_hash,
    writtenAt: row.written_at,
    writtenVia: row.written_via,
    writtenBy: row.written_by,
    replacedAt: row.replaced_at,
    bytes: row.bytes,
    linesAdded: row.lines_added,
    linesRemoved: row.lines_removed,
  }
}

function toContent(row: ContentRow): VersionContent {
  return {
    title: row.title,
    type: row.type,
    pageKind: row.page_kind,
    frontmatter: row.frontmatter ?? {},
    compiledTruth: row.compiled_truth,
    timeline: row.timeline,
    tags: row.tags ?? [],
  }
}

/**
 * Keeps a page's current content as its next version, in one statement inside the write's
 * transaction: the page row is locked, so two writers never take the same number, and the
 * content comes back for the caller to compare with what replaces it. Null when the page is gone.
 */
export async function archiveCurrentContent(tx: SqlExecutor, pageId: number): Promise<VersionContent | null> {
  const { rows } = await tx.query<ContentRow>(
    `WITH current AS (SELECT * FROM pages WHERE id = $1 FOR UPDATE)
     INSERT INTO page_versions (page_id, number, source_id, slug, ${CONTENT_COLUMNS}, content_hash, written_at, written_via, written_by, bytes, lines_added, lines_removed)
     SELECT p.id, coalesce((SELECT max(v.number) FROM page_versions v WHERE v.page_id = p.id), 0) + 1, p.source_id, p.slug,
            p.title, p.type, p.page_kind, p.frontmatter, p.compiled_truth, p.timeline,
            (SELECT coalesce(array_agg(t.tag ORDER BY t.tag), '{}') FROM tags t WHERE t.page_id = p.id),
            p.content_hash, p.updated_at, coalesce(p.written_via, p.ingested_via), p.written_by,
            octet_length(p.compiled_truth) + octet_length(p.timeline), coalesce(p.lines_added, 0), coalesce(p.lines_removed, 0)
     FROM current p
     RETURNING ${CONTENT_COLUMNS}`,
    [pageId],
  )
  return rows[0] ? toContent(rows[0]) : null
}

/** A page's versions, newest first. */
export async function listVersions(db: SqlExecutor, pageId: number, limit = 1000): Promise<VersionSummary[]> {
  const { rows } = await db.query<VersionRow>(`SELECT ${SUMMARY_COLUMNS} FROM page_versions WHERE page_id = $1 ORDER BY number DESC LIMIT $2`, [pageId, limit])
  return rows.map(toSummary)
}

export async function findVersion(db: SqlExecutor, pageId: number, number: number): Promise<PageVersion | null> {
  const { rows } = await db.query<VersionRow & ContentRow>(`SELECT ${SUMMARY_COLUMNS}, ${CONTENT_COLUMNS} FROM page_versions WHERE page_id = $1 AND number = $2`, [pageId, number])
  const row = rows[0]
  return row ? { ...toSummary(row), pageId: row.page_id, sourceId: row.source_id, slug: row.slug, content: toContent(row) } : null
}

/** The number of the newest version, 0 for a page never overwritten. */
export async function latestVersionNumber(db: SqlExecutor, pageId: number): Promise<number> {
  const { rows } = await db.query<{ number: number | null }>('SELECT max(number) AS number FROM page_versions WHERE page_id = $1', [pageId])
  return rows[0]?.number ?? 0
}
