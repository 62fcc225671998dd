/**
 * Reading links: a page's outgoing links and the links pointing at it.
 */
import type { SqlExecutor } from '../db/types.js'

export interface PageLink {
  fromSlug: string
  fromSourceId: string
  toSlug: string
  toSourceId: string
  /** The page at the other end: its page kind (markdown or code). */
  otherPageKind: string
  linkType: string
  linkSource: string | null
  originPageId: string | null
  originField: string | null
}

interface LinkRow {
  from_slug: string
  from_source_id: string
  to_slug: string
  to_source_id: string
  other_page_kind: string
  link_type: string
  link_source: string | null
  origin_page_id: string | null
  origin_field: string | null
}

function toLink(r: LinkRow): PageLink {
  return {
    fromSlug: r.from_slug,
    fromSourceId: r.from_source_id,
    toSlug: r.to_slug,
    toSourceId: r.to_source_id,
    otherPageKind: r.other_page_kind,
    linkType: r.link_type,
    linkSource: r.link_source,
    originPageId: r.origin_page_id,
    originField: r.origin_field,
  }
}

const SELECT = `SELECT f.slug AS from_slug, f.source_id AS from_source_id, t.slug AS to_slug, t.source_id AS to_source_id,
    l.link_type, l.link_source, l.origin_page_id, l.origin_field`

/** Links leaving the page(s) with this slug, in any source. */
export async function getLinks(db: SqlExecutor, slug: string): Promise<PageLink[]> {
  const { rows } = await db.query<LinkRow>(
    `${SELECT}, t.page_kind AS other_page_kind
     FROM links l JOIN pages f ON f.id = l.from_page_id JOIN pages t ON t.id = l.to_page_id
     WHERE f.slug = $1 ORDER BY l.link_type, t.slug, t.source_id`,
    [slug],
  )
  return rows.map(toLink)
}

/** Links pointing at the page(s) with this slug, in any source. */
export async function getBacklinks(db: SqlExecutor, slug: string): Promise<PageLink[]> {
  const { rows } = await db.query<LinkRow>(
    `${SELECT}, f.page_kind AS other_page_kind
     FROM links l JOIN pages f ON f.id = l.from_page_id JOIN pages t ON t.id = l.to_page_id
     WHERE t.slug = $1 ORDER BY l.link_type, f.slug, f.source_id`,
    [slug],
  )
  return rows.map(toLink)
}
