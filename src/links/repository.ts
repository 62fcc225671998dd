/**
 * Citation links between a markdown page and the code pages it cites: `documents` from the
 * markdown page, `documented_by` back, both with link_source `markdown` and the markdown slug as
 * origin. A cited path without a code page is skipped (and counted).
 */
import type { SqlExecutor } from '../db/index.js'
import type { CodeCitation } from './citations.js'

export interface LinkWriteCounts {
  /** Distinct paths cited. */
  cited: number
  /** Cited paths with a code page. */
  found: number
  /** Links written (or, in a dry run, that would be written), both directions. */
  added: number
  /** Of those, the `documents` links from the note and the `documented_by` links back. */
  documents: number
  documentedBy: number
}

export interface MarkdownPageRef {
  id: number
  slug: string
  sourceId: string
}

/** The cited code pages: one per path, preferring the citing page's own source. */
const TARGETS = `cites AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(path text, field text)),
  targets AS (
    SELECT DISTINCT ON (x.path) x.path, x.field, t.id
    FROM cites x JOIN pages t ON t.slug = x.path AND t.page_kind = 'code'
    ORDER BY x.path, (t.source_id = $3) DESC, t.id)`

function payload(citations: readonly CodeCitation[]): string {
  return JSON.stringify(citations.map((c) => ({ path: c.path, field: c.field })))
}

/** Adds the citation links of one markdown page; existing links are kept as they are. */
export async function addCitationLinks(db: SqlExecutor, page: MarkdownPageRef, citations: readonly CodeCitation[]): Promise<LinkWriteCounts> {
  if (citations.length === 0) return { cited: 0, found: 0, added: 0, documents: 0, documentedBy: 0 }
  const { rows } = await db.query<{ found: number; fwd: number; rev: number }>(
    `WITH ${TARGETS},
       fwd AS (INSERT INTO links (from_page_id, to_page_id, link_type, link_source, origin_page_id, origin_field)
               SELECT $1, id, 'documents', 'markdown', $4, field FROM targets ON CONFLICT DO NOTHING RETURNING 1),
       rev AS (INSERT INTO links (from_page_id, to_page_id, link_type, link_source, origin_page_id, origin_field)
               SELECT id, $1, 'documented_by', 'markdown', $4, field FROM targets ON CONFLICT DO NOTHING RETURNING 1)
     SELECT (SELECT count(*) FROM targets) AS found, (SELECT count(*) FROM fwd) AS fwd, (SELECT count(*) FROM rev) AS rev`,
    [page.id, payload(citations), page.sourceId, page.slug],
  )
  const row = rows[0]!
  return { cited: citations.length, found: Number(row.found), added: Number(row.fwd) + Number(row.rev), documents: Number(row.fwd), documentedBy: Number(row.rev) }
}

/** What addCitationLinks would do, without writing. */
export async function countMissingCitationLinks(db: SqlExecutor, page: MarkdownPageRef, citations: readonly CodeCitation[]): Promise<LinkWriteCounts> {
  if (citations.length === 0) return { cited: 0, found: 0, added: 0, documents: 0, documentedBy: 0 }
  const { rows } = await db.query<{ found: number; fwd: number; rev: number }>(
    `WITH ${TARGETS}
     SELECT (SELECT count(*) FROM targets) AS found,
            (SELECT count(*) FROM targets t WHERE NOT EXISTS
               (SELECT 1 FROM links l WHERE l.from_page_id = $1 AND l.to_page_id = t.id AND l.link_type = 'documents')) AS fwd,
            (SELECT count(*) FROM targets t WHERE NOT EXISTS
               (SELECT 1 FROM links l WHERE l.from_page_id = t.id AND l.to_page_id = $1 AND l.link_type = 'documented_by')) AS rev`,
    [page.id, payload(citations), page.sourceId],
  )
  const row = rows[0]!
  return { cited: citations.length, found: Number(row.found), added: Number(row.fwd) + Number(row.rev), documents: Number(row.fwd), documentedBy: Number(row.rev) }
}

/** Drops the citation links a markdown page made, so a re-import states them afresh. */
export async function deleteCitationLinks(db: SqlExecutor, page: MarkdownPageRef): Promise<void> {
  await db.query(
    `DELETE FROM links WHERE link_source = 'markdown' AND origin_page_id = $2
       AND ((from_page_id = $1 AND link_type = 'documents') OR (to_page_id = $1 AND link_type = 'documented_by'))`,
    [page.id, page.slug],
  )
}
