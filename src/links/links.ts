/**
 * Reading links: a page's outgoing links (resolved or not) and the links pointing at it.
 */
import type { SqlExecutor, SqlParam } from '../db/index.js'

export interface PageLink {
  fromSlug: string
  fromSourceId: string
  /** Null while the link is unresolved: nothing matches its target text. */
  toSlug: string | null
  toSourceId: string | null
  /** The page at the other end: its page kind (markdown or code); null when unresolved. */
  otherPageKind: string | null
  linkType: string
  linkSource: string | null
  originPageId: string | null
  originField: string | null
  /** Explicit links: the target as written, the shown text and the heading or ^block anchor. */
  targetText: string | null
  shownText: string | null
  anchor: string | null
  line: number | null
  context: string | null
}

export interface LinkQuery {
  /** Only links of these types (links_to, embeds, documents, a property name, …). */
  types?: readonly string[]
  sourceId?: string
  limit?: number
  /** Links to skip, in the listing's order. */
  offset?: number
}

interface LinkRow {
  from_slug: string
  from_source_id: string
  to_slug: string | null
  to_source_id: string | null
  other_page_kind: string | null
  link_type: string
  link_source: string | null
  origin_page_id: string | null
  origin_field: string | null
  target_text: string | null
  shown_text: string | null
  anchor: string | null
  line: number | null
  context: string | null
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
    targetText: r.target_text,
    shownText: r.shown_text,
    anchor: r.anchor,
    line: r.line === null ? null : Number(r.line),
    context: r.context,
  }
}

const SELECT = `SELECT f.slug AS from_slug, f.source_id AS from_source_id, t.slug AS to_slug, t.source_id AS to_source_id,
    l.link_type, l.link_source, l.origin_page_id, l.origin_field, l.target_text, l.shown_text, l.anchor, l.line, l.context`

const FILTER = `($2::text[] IS NULL OR l.link_type = ANY($2::text[])) AND ($3::text IS NULL OR p.source_id = $3)`
/** One page of links at most; a page with more is read with an offset. */
export const MAX_LINKS = 100_000
/** One page of links when no limit is given. */
const DEFAULT_LINKS = 10_000

function filterParams(slug: string, query: LinkQuery): SqlParam[] {
  return [slug, query.types && query.types.length > 0 ? [...query.types] : null, query.sourceId ?? null]
}

function params(slug: string, query: LinkQuery): SqlParam[] {
  return [...filterParams(slug, query), Math.min(query.limit ?? DEFAULT_LINKS, MAX_LINKS), query.offset ?? 0]
}

/** How many links `getLinks` (direction out) or `getBacklinks` (in) would list with no limit. */
export async function countLinks(db: SqlExecutor, slug: string, direction: 'out' | 'in', query: LinkQuery = {}): Promise<number> {
  const join = direction === 'out' ? 'l.from_page_id = p.id' : 'l.to_page_id = p.id'
  const { rows } = await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM pages p JOIN links l ON ${join} WHERE p.slug = $1 AND ${FILTER}`, filterParams(slug, query))
  return Number(rows[0]?.n ?? 0)
}

/** Links leaving the page(s) with this slug, in any source (or the given one); unresolved ones too. */
export async function getLinks(db: SqlExecutor, slug: string, query: LinkQuery = {}): Promise<PageLink[]> {
  const { rows } = await db.query<LinkRow>(
    `${SELECT}, t.page_kind AS other_page_kind
     FROM pages p JOIN links l ON l.from_page_id = p.id JOIN pages f ON f.id = p.id LEFT JOIN pages t ON t.id = l.to_page_id
     WHERE p.slug = $1 AND ${FILTER}
     ORDER BY l.link_type, coalesce(t.slug, l.target_text), t.source_id, l.line NULLS FIRST, l.id LIMIT $4 OFFSET $5`,
    params(slug, query),
  )
  return rows.map(toLink)
}

/** Links pointing at the page(s) with this slug, in any source (or the given one). */
export async function getBacklinks(db: SqlExecutor, slug: string, query: LinkQuery = {}): Promise<PageLink[]> {
  const { rows } = await db.query<LinkRow>(
    `${SELECT}, f.page_kind AS other_page_kind
     FROM pages p JOIN links l ON l.to_page_id = p.id JOIN pages f ON f.id = l.from_page_id JOIN pages t ON t.id = p.id
     WHERE p.slug = $1 AND ${FILTER}
     ORDER BY l.link_type, f.slug, f.source_id, l.line NULLS FIRST, l.id LIMIT $4 OFFSET $5`,
    params(slug, query),
  )
  return rows.map(toLink)
}
