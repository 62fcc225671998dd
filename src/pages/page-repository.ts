import type { SqlExecutor } from '../db/index.js'
import type { Page, PageKind, PageSummary, Provenance } from './types.js'

interface PageRow {
  id: number
  source_id: string
  slug: string
  title: string
  type: string
  page_kind: PageKind
  compiled_truth: string
  timeline: string
  frontmatter: Record<string, unknown>
  content_hash: string
  created_at: Date
  updated_at: Date
  ingested_via: string | null
  ingested_at: Date | null
  source_uri: string | null
  source_kind: string | null
  written_via: string | null
  written_by: string | null
  lines_added: number | null
  lines_removed: number | null
  tags: string[] | null
}

/** A page's tags, sorted, as one array column of the row. */
const TAGS_COLUMN = `(SELECT coalesce(array_agg(t.tag ORDER BY t.tag), '{}') FROM tags t WHERE t.page_id = p.id) AS tags`

const PAGE_COLUMNS = `p.id, p.source_id, p.slug, p.title, p.type, p.page_kind, p.compiled_truth, p.timeline,
  p.frontmatter, p.content_hash, p.created_at, p.updated_at, p.ingested_via, p.ingested_at, p.source_uri, p.source_kind,
  p.written_via, p.written_by, p.lines_added, p.lines_removed, ${TAGS_COLUMN}`

function toPage(row: PageRow): Page {
  return {
    id: row.id,
    sourceId: row.source_id,
    slug: row.slug,
    title: row.title,
    type: row.type,
    pageKind: row.page_kind,
    compiledTruth: row.compiled_truth,
    timeline: row.timeline,
    frontmatter: row.frontmatter ?? {},
    tags: row.tags ?? [],
    contentHash: row.content_hash,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ingestedVia: row.ingested_via,
    ingestedAt: row.ingested_at,
    sourceUri: row.source_uri,
    sourceKind: row.source_kind,
    writtenVia: row.written_via ?? null,
    writtenBy: row.written_by ?? null,
    linesAdded: row.lines_added ?? null,
    linesRemoved: row.lines_removed ?? null,
  }
}

export async function findPage(db: SqlExecutor, sourceId: string, slug: string): Promise<Page | null> {
  const { rows } = await db.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM pages p WHERE p.source_id = $1 AND p.slug = $2`, [sourceId, slug])
  return rows[0] ? toPage(rows[0]) : null
}

/** Pages by id, in the order asked. */
export async function findPagesByIds(db: SqlExecutor, ids: readonly number[]): Promise<Page[]> {
  if (ids.length === 0) return []
  const { rows } = await db.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM pages p WHERE p.id = ANY($1::bigint[])`, [ids])
  const byId = new Map(rows.map((row) => [Number(row.id), toPage(row)]))
  return ids.map((id) => byId.get(Number(id))).filter((page): page is Page => page !== undefined)
}

/** A page by id, its row locked until the transaction ends: the content a write replaces. */
export async function lockPageById(tx: SqlExecutor, id: number): Promise<Page | null> {
  const { rows } = await tx.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM pages p WHERE p.id = $1 FOR UPDATE`, [id])
  return rows[0] ? toPage(rows[0]) : null
}

export async function findPageHash(db: SqlExecutor, sourceId: string, slug: string): Promise<{ id: number; contentHash: string } | null> {
  const { rows } = await db.query<{ id: number; content_hash: string }>('SELECT id, content_hash FROM pages WHERE source_id = $1 AND slug = $2', [sourceId, slug])
  return rows[0] ? { id: rows[0].id, contentHash: rows[0].content_hash } : null
}

export interface PageWrite extends Provenance {
  sourceId: string
  slug: string
  title: string
  type: string
  pageKind: PageKind
  compiledTruth: string
  timeline: string
  frontmatter: Record<string, unknown>
  contentHash: string
  writtenVia: string
  writtenBy: string | null
  linesAdded: number | null
  linesRemoved: number | null
}

/** Inserts or replaces a page by (source_id, slug); returns its id and whether it was new. */
export async function upsertPage(db: SqlExecutor, page: PageWrite): Promise<{ id: number; created: boolean }> {
  const { rows } = await db.query<{ id: number; created: boolean }>(
    `INSERT INTO pages (source_id, slug, title, type, page_kind, compiled_truth, timeline, frontmatter, content_hash,
                        ingested_via, ingested_at, source_uri, source_kind, written_via, written_by, lines_added, lines_removed, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $15, $16, $17, now())
     ON CONFLICT (source_id, slug) DO UPDATE SET
       title = EXCLUDED.title, type = EXCLUDED.type, page_kind = EXCLUDED.page_kind,
       compiled_truth = EXCLUDED.compiled_truth, timeline = EXCLUDED.timeline,
       frontmatter = EXCLUDED.frontmatter, content_hash = EXCLUDED.content_hash,
       ingested_via = coalesce(EXCLUDED.ingested_via, pages.ingested_via),
       ingested_at = coalesce(EXCLUDED.ingested_at, pages.ingested_at),
       source_uri = coalesce(EXCLUDED.source_uri, pages.source_uri),
       source_kind = coalesce(EXCLUDED.source_kind, pages.source_kind),
       written_via = EXCLUDED.written_via, written_by = EXCLUDED.written_by,
       lines_added = EXCLUDED.lines_added, lines_removed = EXCLUDED.lines_removed,
       updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    [
      page.sourceId,
      page.slug,
      page.title,
      page.type,
      page.pageKind,
      page.compiledTruth,
      page.timeline,
      JSON.stringify(page.frontmatter),
      page.contentHash,
      page.ingestedVia,
      page.ingestedAt,
      page.sourceUri,
      page.sourceKind,
      page.writtenVia,
      page.writtenBy,
      page.linesAdded,
      page.linesRemoved,
    ],
  )
  return rows[0]!
}

/**
 * Inserts pages that do not exist yet, in one statement; returns their ids in the order given (ids
 * are drawn in that order, as one upsertPage per page would draw them). A page that exists
 * already fails the statement. `given` carries vectors worked out ahead (search-vectors.ts): each
 * is stored while the brain's language is still the one it was computed for, and a transaction
 * that said so (keepGivenVectors) keeps it instead of parsing the text again.
 */
export async function insertNewPages(db: SqlExecutor, pages: readonly PageWrite[], given?: { config: string; vectors: readonly (string | null)[] }): Promise<number[]> {
  const rows = pages.map((page, ord) => ({
    ord,
    source_id: page.sourceId,
    slug: page.slug,
    title: page.title,
    type: page.type,
    page_kind: page.pageKind,
    compiled_truth: page.compiledTruth,
    timeline: page.timeline,
    frontmatter: page.frontmatter,
    content_hash: page.contentHash,
    ingested_via: page.ingestedVia,
    ingested_at: page.ingestedAt?.toISOString() ?? null,
    source_uri: page.sourceUri,
    source_kind: page.sourceKind,
    written_via: page.writtenVia,
    written_by: page.writtenBy,
    lines_added: page.linesAdded,
    lines_removed: page.linesRemoved,
    search_vector: given?.vectors[ord] ?? null,
  }))
  const { rows: inserted } = await db.query<{ id: number; slug: string; source_id: string }>(
    `INSERT INTO pages (source_id, slug, title, type, page_kind, compiled_truth, timeline, frontmatter, content_hash,
                        ingested_via, ingested_at, source_uri, source_kind, written_via, written_by, lines_added, lines_removed, updated_at, search_vector)
     SELECT x.source_id, x.slug, x.title, x.type, x.page_kind, x.compiled_truth, x.timeline, x.frontmatter, x.content_hash,
            x.ingested_via, x.ingested_at, x.source_uri, x.source_kind, x.written_via, x.written_by, x.lines_added, x.lines_removed, now(),
            CASE WHEN g.same THEN x.search_vector::tsvector END
     FROM jsonb_to_recordset($1::jsonb) AS x(source_id text, slug text, title text, type text, page_kind text,
            compiled_truth text, timeline text, frontmatter jsonb, content_hash text, ingested_via text, ingested_at timestamptz,
            source_uri text, source_kind text, written_via text, written_by text, lines_added integer, lines_removed integer, ord bigint,
            search_vector text)
     CROSS JOIN (SELECT $2::regconfig = brain_search_language() AS same) AS g
     ORDER BY x.ord
     RETURNING id, slug, source_id`,
    [JSON.stringify(rows), given?.config ?? null],
  )
  const idOf = new Map(inserted.map((r) => [`${r.source_id}\u0000${r.slug}`, Number(r.id)]))
  return pages.map((page) => idOf.get(`${page.sourceId}\u0000${page.slug}`)!)
}

/** The tags of pages that had none before (a bulk import), in one statement. */
export async function addTagsOfNewPages(db: SqlExecutor, pages: ReadonlyArray<{ pageId: number; tags: readonly string[] }>): Promise<void> {
  const tagged = pages.flatMap((p) => p.tags.map((tag) => [p.pageId, tag] as const))
  if (tagged.length === 0) return
  await db.query('INSERT INTO tags (page_id, tag) SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT DO NOTHING', [tagged.map((t) => t[0]), tagged.map((t) => t[1])])
}

export async function replaceTags(db: SqlExecutor, pageId: number, tags: readonly string[]): Promise<void> {
  await db.query('DELETE FROM tags WHERE page_id = $1 AND NOT (tag = ANY($2::text[]))', [pageId, tags])
  if (tags.length > 0) {
    await db.query('INSERT INTO tags (page_id, tag) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [pageId, tags])
  }
}

export async function addTag(db: SqlExecutor, pageId: number, tag: string): Promise<boolean> {
  const { rowCount } = await db.query('INSERT INTO tags (page_id, tag) VALUES ($1, $2) ON CONFLICT DO NOTHING', [pageId, tag])
  return rowCount > 0
}

export async function removeTag(db: SqlExecutor, pageId: number, tag: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM tags WHERE page_id = $1 AND tag = $2', [pageId, tag])
  return rowCount > 0
}

export async function deletePage(db: SqlExecutor, sourceId: string, slug: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM pages WHERE source_id = $1 AND slug = $2', [sourceId, slug])
  return rowCount > 0
}

export interface ListPagesFilter {
  sourceId?: string
  type?: string
  tag?: string
  pageKind?: PageKind
  slugPrefix?: string
  limit?: number
  offset?: number
}

export async function listPages(db: SqlExecutor, filter: ListPagesFilter = {}): Promise<PageSummary[]> {
  const { rows } = await db.query<PageRow>(
    `SELECT p.id, p.source_id, p.slug, p.title, p.type, p.page_kind, p.updated_at,
       ${TAGS_COLUMN}
     FROM pages p
     WHERE ($1::text IS NULL OR p.source_id = $1)
       AND ($2::text IS NULL OR p.type = $2)
       AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM tags t WHERE t.page_id = p.id AND t.tag = $3))
       AND ($4::text IS NULL OR p.page_kind = $4)
       AND ($5::text IS NULL OR starts_with(p.slug, $5))
     ORDER BY p.updated_at DESC, p.slug
     LIMIT $6 OFFSET $7`,
    [filter.sourceId ?? null, filter.type ?? null, filter.tag ?? null, filter.pageKind ?? null, filter.slugPrefix ?? null, filter.limit ?? 100, filter.offset ?? 0],
  )
  return rows.map((row) => ({
    id: row.id,
    sourceId: row.source_id,
    slug: row.slug,
    title: row.title,
    type: row.type,
    pageKind: row.page_kind,
    tags: row.tags ?? [],
    updatedAt: row.updated_at,
  }))
}

export async function countPages(db: SqlExecutor, sourceId?: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM pages WHERE ($1::text IS NULL OR source_id = $1)', [sourceId ?? null])
  return rows[0]?.n ?? 0
}
