import type { SqlExecutor } from '../db/types.js'

/** The content a write is about to replace, as the page held it. */
export interface VersionRecord {
  pageId: number
  sourceId: string
  slug: string
  /** The page as an export writes it, front matter included. */
  markdown: string
  contentHash: string
  writtenAt: Date
  writtenVia: string | null
  writtenBy: string | null
  /** Lines this content added and removed against the one before it, as the page recorded them. */
  linesAdded: number
  linesRemoved: number
}

export interface VersionSummary {
  number: number
  contentHash: string
  writtenAt: Date
  writtenVia: string | null
  writtenBy: string | null
  replacedAt: Date
  bytes: number
  linesAdded: number
  linesRemoved: number
}

export interface PageVersion extends VersionSummary {
  pageId: number
  sourceId: string
  slug: string
  markdown: string
}

interface VersionRow {
  page_id: number
  source_id: string
  slug: string
  number: number
  markdown?: string
  content_hash: string
  written_at: Date
  written_via: string | null
  written_by: string | null
  replaced_at: Date
  bytes: number
  lines_added: number
  lines_removed: number
}

const SUMMARY_COLUMNS = 'page_id, source_id, slug, number, content_hash, written_at, written_via, written_by, replaced_at, bytes, lines_added, lines_removed'

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

/**
 * Keeps the content a write replaces as the page's next version. Runs inside the write's
 * transaction, after the page row is locked, so two writers never take the same number.
 */
export async function recordVersion(tx: SqlExecutor, record: VersionRecord): Promise<void> {
  await tx.query(
    `INSERT INTO page_versions (page_id, number, source_id, slug, markdown, content_hash, written_at, written_via, written_by, bytes, lines_added, lines_removed)
     SELECT $1, coalesce(max(number), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 FROM page_versions WHERE page_id = $1`,
    [
      record.pageId, record.sourceId, record.slug, record.markdown, record.contentHash, record.writtenAt,
      record.writtenVia, record.writtenBy, Buffer.byteLength(record.markdown, 'utf8'), record.linesAdded, record.linesRemoved,
    ],
  )
}

/** A page's versions, newest first. */
export async function listVersions(db: SqlExecutor, pageId: number, limit = 1000): Promise<VersionSummary[]> {
  const { rows } = await db.query<VersionRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM page_versions WHERE page_id = $1 ORDER BY number DESC LIMIT $2`,
    [pageId, limit],
  )
  return rows.map(toSummary)
}

export async function findVersion(db: SqlExecutor, pageId: number, number: number): Promise<PageVersion | null> {
  const { rows } = await db.query<VersionRow & { markdown: string }>(
    `SELECT ${SUMMARY_COLUMNS}, markdown FROM page_versions WHERE page_id = $1 AND number = $2`,
    [pageId, number],
  )
  const row = rows[0]
  return row ? { ...toSummary(row), pageId: row.page_id, sourceId: row.source_id, slug: row.slug, markdown: row.markdown } : null
}

/** The number of the newest version, 0 for a page never overwritten. */
export async function latestVersionNumber(db: SqlExecutor, pageId: number): Promise<number> {
  const { rows } = await db.query<{ number: number | null }>('SELECT max(number) AS number FROM page_versions WHERE page_id = $1', [pageId])
  return rows[0]?.number ?? 0
}
