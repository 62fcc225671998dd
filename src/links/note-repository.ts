/**
 * Storing a page's explicit links: replaced as a whole on each write of the page, each resolved
 * by the database's one resolution function (`brain_resolve_links`, migration 0300) in the same
 * statement, or stored unresolved with its target text.
 */
import type { SqlExecutor } from '../db/index.js'
import type { NoteLinkDraft } from './note-links.js'
import type { MarkdownPageRef } from './repository.js'

function draftRow(l: NoteLinkDraft) {
  return {
    type: l.type,
    source: l.source,
    text: l.targetText,
    key: l.key,
    rel: l.relKey,
    shown: l.shownText,
    anchor: l.anchor,
    field: l.field,
    line: l.line,
    context: l.context,
  }
}

function payload(links: readonly NoteLinkDraft[]): string {
  return JSON.stringify(links.map(draftRow))
}

/** Replaces the explicit links of a page; returns how many were stored and how many resolved. */
export async function replaceNoteLinks(db: SqlExecutor, page: MarkdownPageRef, links: readonly NoteLinkDraft[], isNewPage: boolean): Promise<{ stored: number; resolved: number }> {
  if (!isNewPage) await db.query('DELETE FROM links WHERE from_page_id = $1 AND target_text IS NOT NULL', [page.id])
  if (links.length === 0) return { stored: 0, resolved: 0 }
  const { rows } = await db.query<{ stored: number; resolved: number }>(
    `WITH drafts AS (
       SELECT x.*, row_number() OVER () AS ord
       FROM jsonb_to_recordset($2::jsonb) AS x(type text, source text, text text, key text, rel text, shown text,
                                               anchor text, field text, line integer, context text)),
     resolved AS (
       SELECT r.ord, r.page_id FROM brain_resolve_links(
         (SELECT array_agg($3::text ORDER BY ord) FROM drafts), (SELECT array_agg(key ORDER BY ord) FROM drafts),
         (SELECT array_agg(rel ORDER BY ord) FROM drafts), (SELECT array_agg(text ORDER BY ord) FROM drafts), NULL) r),
     ins AS (
       INSERT INTO links (from_page_id, to_page_id, link_type, link_source, origin_page_id, origin_field,
                          target_text, target_key, target_rel_key, shown_text, anchor, line, context)
       SELECT $1, r.page_id, d.type, d.source, $4, d.field, d.text, d.key, d.rel, d.shown, d.anchor, d.line, d.context
       FROM drafts d JOIN resolved r ON r.ord = d.ord
       RETURNING to_page_id)
     SELECT count(*) AS stored, count(to_page_id) AS resolved FROM ins`,
    [page.id, payload(links), page.sourceId, page.slug],
  )
  return { stored: Number(rows[0]!.stored), resolved: Number(rows[0]!.resolved) }
}

/**
 * The explicit links of pages written together that had none before (a bulk import), in one
 * statement, each resolved by the same function as replaceNoteLinks; stored in page order.
 */
export async function insertNoteLinksOfNewPages(db: SqlExecutor, pages: ReadonlyArray<{ page: MarkdownPageRef; links: readonly NoteLinkDraft[] }>): Promise<void> {
  const rows = pages.flatMap(({ page, links }) => links.map((l) => Object.assign(draftRow(l), { from_id: page.id, from_source: page.sourceId, origin: page.slug })))
  if (rows.length === 0) return
  await db.query(
    `WITH drafts AS (
       SELECT x.*, row_number() OVER () AS ord
       FROM jsonb_to_recordset($1::jsonb) AS x(from_id bigint, from_source text, origin text, type text, source text, text text, key text,
                                               rel text, shown text, anchor text, field text, line integer, context text)),
     resolved AS (
       SELECT r.ord, r.page_id FROM brain_resolve_links(
         (SELECT array_agg(from_source ORDER BY ord) FROM drafts), (SELECT array_agg(key ORDER BY ord) FROM drafts),
         (SELECT array_agg(rel ORDER BY ord) FROM drafts), (SELECT array_agg(text ORDER BY ord) FROM drafts), NULL) r)
     INSERT INTO links (from_page_id, to_page_id, link_type, link_source, origin_page_id, origin_field,
                        target_text, target_key, target_rel_key, shown_text, anchor, line, context)
     SELECT d.from_id, r.page_id, d.type, d.source, d.origin, d.field, d.text, d.key, d.rel, d.shown, d.anchor, d.line, d.context
     FROM drafts d JOIN resolved r ON r.ord = d.ord
     ORDER BY d.ord`,
    [JSON.stringify(rows)],
  )
}
