import type { Database, SqlExecutor } from '../db/index.js'
import { NotFoundError } from '../errors/index.js'

/** Who removed a page and through what, kept with it in the trash. */
interface RemovedBy {
  via: string
  by?: string | null
}

export interface TrashEntry {
  trashId: number
  pageId: number
  sourceId: string
  slug: string
  title: string
  type: string
  pageKind: string
  bytes: number
  deletedAt: Date
  deletedVia: string | null
  deletedBy: string | null
}

interface TrashRow {
  id: number
  page_id: number
  source_id: string
  slug: string
  title: string
  type: string
  page_kind: string
  bytes: number | string
  deleted_at: Date
  deleted_via: string | null
  deleted_by: string | null
}

function toEntry(row: TrashRow): TrashEntry {
  return {
    trashId: Number(row.id),
    pageId: Number(row.page_id),
    sourceId: row.source_id,
    slug: row.slug,
    title: row.title,
    type: row.type,
    pageKind: row.page_kind,
    bytes: Number(row.bytes),
    deletedAt: row.deleted_at,
    deletedVia: row.deleted_via,
    deletedBy: row.deleted_by,
  }
}

const ENTRY_COLUMNS = 'id, page_id, source_id, slug, title, type, page_kind, bytes, deleted_at, deleted_via, deleted_by'

/** Every row that hangs off the pages in `doomed`, as JSON: what a restore puts back. */
const SNAPSHOT = `jsonb_build_object(
  'page', to_jsonb(p),
  'tags', (SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) FROM tags t WHERE t.page_id = p.id),
  'chunks', (SELECT coalesce(jsonb_agg(to_jsonb(c) ORDER BY c.chunk_index), '[]'::jsonb) FROM content_chunks c WHERE c.page_id = p.id),
  'links', (SELECT coalesce(jsonb_agg(to_jsonb(l)), '[]'::jsonb) FROM links l WHERE l.from_page_id = p.id OR l.to_page_id = p.id),
  'code_symbols', (SELECT coalesce(jsonb_agg(to_jsonb(s)), '[]'::jsonb) FROM code_symbols s WHERE s.page_id = p.id),
  'code_edges_chunk', (SELECT coalesce(jsonb_agg(to_jsonb(e)), '[]'::jsonb) FROM code_edges_chunk e
     WHERE e.from_chunk_id IN (SELECT id FROM content_chunks WHERE page_id = p.id) OR e.to_chunk_id IN (SELECT id FROM content_chunks WHERE page_id = p.id)),
  'code_edges_symbol', (SELECT coalesce(jsonb_agg(to_jsonb(e)), '[]'::jsonb) FROM code_edges_symbol e
     WHERE e.from_chunk_id IN (SELECT id FROM content_chunks WHERE page_id = p.id))
)`

/**
 * Moves pages to the trash in the caller's transaction: a snapshot of each page with its tags,
 * chunks (embeddings included), links and code graph, then the rows themselves go, so the page
 * leaves get, list, search and links at once and its slug is free.
 */
export async function trashPages(tx: SqlExecutor, pageIds: readonly number[], removed: RemovedBy): Promise<TrashEntry[]> {
  if (pageIds.length === 0) return []
  const { rows } = await tx.query<TrashRow>(
    `INSERT INTO page_trash (page_id, source_id, slug, title, type, page_kind, bytes, deleted_via, deleted_by, snapshot)
     SELECT p.id, p.source_id, p.slug, p.title, p.type, p.page_kind, octet_length(p.compiled_truth) + octet_length(p.timeline), $2, $3, ${SNAPSHOT}
     FROM pages p WHERE p.id = ANY($1::bigint[])
     RETURNING ${ENTRY_COLUMNS}`,
    [pageIds, removed.via, removed.by ?? null],
  )
  await tx.query('DELETE FROM pages WHERE id = ANY($1::bigint[])', [pageIds])
  return rows.map(toEntry)
}

/** Removes pages for good, with their versions: nothing of them is left to restore. */
export async function hardDeletePages(tx: SqlExecutor, pageIds: readonly number[]): Promise<number> {
  if (pageIds.length === 0) return 0
  const { rowCount } = await tx.query('DELETE FROM pages WHERE id = ANY($1::bigint[])', [pageIds])
  await tx.query('DELETE FROM page_versions WHERE page_id = ANY($1::bigint[])', [pageIds])
  return rowCount
}

interface TrashFilter {
  sourceId?: string
  slugPrefix?: string
  limit?: number
}

/** The trash, most recently deleted first. */
export async function listTrash(db: SqlExecutor, filter: TrashFilter = {}): Promise<TrashEntry[]> {
  const { rows } = await db.query<TrashRow>(
    `SELECT ${ENTRY_COLUMNS} FROM page_trash
     WHERE ($1::text IS NULL OR source_id = $1) AND ($2::text IS NULL OR starts_with(slug, $2))
     ORDER BY deleted_at DESC, id DESC LIMIT $3`,
    [filter.sourceId ?? null, filter.slugPrefix ?? null, filter.limit ?? 100],
  )
  return rows.map(toEntry)
}

/** A trash entry by its id, or the most recently deleted page with a slug. */
export type TrashRef = { trashId: number } | { slug: string; sourceId?: string }

export interface RestoreResult extends TrashEntry {
  /** The slug the page is back under: its own, or a free one when that was taken meanwhile. */
  restoredSlug: string
  renamed: boolean
  chunks: number
  links: number
}

async function findEntry(tx: SqlExecutor, ref: TrashRef): Promise<TrashEntry> {
  const { rows } =
    'trashId' in ref
      ? await tx.query<TrashRow>(`SELECT ${ENTRY_COLUMNS} FROM page_trash WHERE id = $1 FOR UPDATE`, [ref.trashId])
      : await tx.query<TrashRow>(
          `SELECT ${ENTRY_COLUMNS} FROM page_trash WHERE slug = $1 AND ($2::text IS NULL OR source_id = $2)
         ORDER BY deleted_at DESC, id DESC LIMIT 1 FOR UPDATE`,
          [ref.slug, ref.sourceId ?? null],
        )
  if (!rows[0]) {
    const named = 'trashId' in ref ? `#${ref.trashId}` : ref.slug
    throw new NotFoundError('trash_entry_not_found', `Nothing in the trash for ${named}.`, { hint: 'It may have been purged or restored already; see `brain trash list`.' })
  }
  return toEntry(rows[0])
}

async function freeSlug(tx: SqlExecutor, sourceId: string, slug: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? slug : n === 2 ? `${slug}-restored` : `${slug}-restored-${n - 1}`
    const { rows } = await tx.query('SELECT 1 FROM pages WHERE source_id = $1 AND slug = $2', [sourceId, candidate])
    if (rows.length === 0) return candidate
  }
}

/** Rows of the snapshot put back where every row they point at exists again (an unresolved link points at none). */
const RESTORES = [
  `INSERT INTO tags SELECT r.* FROM page_trash t, jsonb_populate_recordset(null::tags, t.snapshot->'tags') r WHERE t.id = $1 ON CONFLICT DO NOTHING`,
  `INSERT INTO content_chunks SELECT r.* FROM page_trash t, jsonb_populate_recordset(null::content_chunks, t.snapshot->'chunks') r WHERE t.id = $1 ON CONFLICT DO NOTHING`,
  `INSERT INTO code_symbols SELECT r.* FROM page_trash t, jsonb_populate_recordset(null::code_symbols, t.snapshot->'code_symbols') r
   WHERE t.id = $1 AND EXISTS (SELECT 1 FROM content_chunks c WHERE c.id = r.chunk_id) ON CONFLICT DO NOTHING`,
  `INSERT INTO code_edges_chunk SELECT r.* FROM page_trash t, jsonb_populate_recordset(null::code_edges_chunk, t.snapshot->'code_edges_chunk') r
   WHERE t.id = $1 AND EXISTS (SELECT 1 FROM content_chunks c WHERE c.id = r.from_chunk_id) AND EXISTS (SELECT 1 FROM content_chunks c WHERE c.id = r.to_chunk_id)
   ON CONFLICT DO NOTHING`,
  `INSERT INTO code_edges_symbol SELECT r.* FROM page_trash t, jsonb_populate_recordset(null::code_edges_symbol, t.snapshot->'code_edges_symbol') r
   WHERE t.id = $1 AND EXISTS (SELECT 1 FROM content_chunks c WHERE c.id = r.from_chunk_id) ON CONFLICT DO NOTHING`,
] as const

const RESTORE_LINKS = `INSERT INTO links SELECT r.* FROM page_trash t, jsonb_populate_recordset(null::links, t.snapshot->'links') r
   WHERE t.id = $1 AND EXISTS (SELECT 1 FROM pages p WHERE p.id = r.from_page_id)
     AND (r.to_page_id IS NULL OR EXISTS (SELECT 1 FROM pages p WHERE p.id = r.to_page_id))
   ON CONFLICT DO NOTHING`

/**
 * Puts a trashed page back under its old id with its tags, chunks and embeddings, links whose
 * other end still exists, and code graph; under a new slug when its own was taken meanwhile.
 */
export async function restoreFromTrash(db: Database, ref: TrashRef): Promise<RestoreResult> {
  return db.transaction(async (tx) => {
    const entry = await findEntry(tx, ref)
    const source = await tx.query('SELECT 1 FROM sources WHERE id = $1', [entry.sourceId])
    if (source.rows.length === 0) {
      throw new NotFoundError('source_not_found', `The source "${entry.sourceId}" of ${entry.slug} no longer exists.`, { hint: 'Add the source again with `brain sources add`, then restore.' })
    }
    const slug = await freeSlug(tx, entry.sourceId, entry.slug)
    await tx.query(`INSERT INTO pages SELECT (jsonb_populate_record(null::pages, jsonb_set(t.snapshot->'page', '{slug}', to_jsonb($2::text)))).* FROM page_trash t WHERE t.id = $1`, [
      entry.trashId,
      slug,
    ])
    for (const sql of RESTORES) await tx.query(sql, [entry.trashId])
    const links = await tx.query(RESTORE_LINKS, [entry.trashId])
    const chunks = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM content_chunks WHERE page_id = $1', [entry.pageId])
    await tx.query('DELETE FROM page_trash WHERE id = $1', [entry.trashId])
    return { ...entry, restoredSlug: slug, renamed: slug !== entry.slug, chunks: chunks.rows[0]?.n ?? 0, links: links.rowCount }
  })
}

/**
 * Empties the trash of entries deleted before the cutoff (all of them without one), with the
 * versions of pages that are now gone everywhere.
 */
export async function purgeTrash(db: Database, olderThanMs: number | null): Promise<{ purged: number; versionsRemoved: number }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ page_id: number }>(
      `DELETE FROM page_trash WHERE ($1::double precision IS NULL OR deleted_at < now() - make_interval(secs => $1::double precision)) RETURNING page_id`,
      [olderThanMs === null ? null : olderThanMs / 1000],
    )
    const ids = rows.map((r) => Number(r.page_id))
    const versions = await tx.query(
      `DELETE FROM page_versions v WHERE v.page_id = ANY($1::bigint[])
         AND NOT EXISTS (SELECT 1 FROM pages p WHERE p.id = v.page_id) AND NOT EXISTS (SELECT 1 FROM page_trash t WHERE t.page_id = v.page_id)`,
      [ids],
    )
    return { purged: rows.length, versionsRemoved: versions.rowCount }
  })
}
