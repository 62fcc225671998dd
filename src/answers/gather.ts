/**
 * The database reads of a context pack, each one statement for the whole pack: the hit chunks'
 * text, their pages, the pages linked to them, and the code definitions of named identifiers.
 * Every read is bounded to the asked source, and neighbours to their own page's source.
 */
import type { SqlExecutor } from '../db/index.js'

export interface PageRow {
  id: number
  slug: string
  source_id: string
  title: string
  page_kind: string
  compiled_truth: string
  timeline: string
  frontmatter: Record<string, unknown>
  updated_at: string
}

export interface ChunkRow {
  id: number
  page_id: number
  chunk_text: string
  chunk_source: string
}

export interface DefinitionRow {
  name: string
  qualified: string
  symbol_type: string
  start_line: number
  end_line: number
  chunk_id: number
  chunk_start: number | null
  chunk_text: string
  slug: string
  source_id: string
  title: string
  updated_at: string
}

export const PAGE_COLUMNS = `p.id::int AS id, p.slug, p.source_id, p.title, p.page_kind, p.compiled_truth, p.timeline, p.frontmatter, p.updated_at::text AS updated_at`

/** The chunks search returned, with the page each belongs to. */
export async function chunksById(db: SqlExecutor, ids: readonly number[], source: string | null): Promise<ChunkRow[]> {
  if (ids.length === 0) return []
  const { rows } = await db.query<ChunkRow>(
    `SELECT c.id::int AS id, c.page_id::int AS page_id, c.chunk_text, c.chunk_source
     FROM content_chunks c JOIN pages p ON p.id = c.page_id
     WHERE c.id = ANY($1::bigint[]) AND ($2::text IS NULL OR p.source_id = $2)`,
    [ids, source],
  )
  return rows
}

export async function pagesById(db: SqlExecutor, ids: readonly number[], source: string | null): Promise<PageRow[]> {
  if (ids.length === 0) return []
  const { rows } = await db.query<PageRow>(`SELECT ${PAGE_COLUMNS} FROM pages p WHERE p.id = ANY($1::bigint[]) AND ($2::text IS NULL OR p.source_id = $2)`, [ids, source])
  return rows
}

/**
 * Pages one link away from `pageIds` (either direction, any link type), in their linking page's
 * own source, most-linked first. `exclude` are pages already in the pack.
 */
export async function linkedPages(db: SqlExecutor, pageIds: readonly number[], source: string | null, limit: number): Promise<Array<PageRow & { via: number }>> {
  if (pageIds.length === 0) return []
  const { rows } = await db.query<PageRow & { via: number }>(
    `WITH edges AS (
       SELECT l.from_page_id AS a, l.to_page_id AS b FROM links l WHERE l.from_page_id = ANY($1::bigint[]) AND l.to_page_id IS NOT NULL
       UNION ALL
       SELECT l.to_page_id AS a, l.from_page_id AS b FROM links l WHERE l.to_page_id = ANY($1::bigint[])
     ), near AS (
       SELECT e.b AS id, min(e.a)::int AS via, count(*) AS weight FROM edges e WHERE e.b <> ALL($1::bigint[]) GROUP BY e.b
     )
     SELECT ${PAGE_COLUMNS}, near.via
     FROM near JOIN pages p ON p.id = near.id JOIN pages origin ON origin.id = near.via
     WHERE p.source_id = origin.source_id AND ($2::text IS NULL OR p.source_id = $2)
     ORDER BY near.weight DESC, p.id
     LIMIT $3`,
    [pageIds, source, limit],
  )
  return rows
}

/** Definitions named like `names` (a symbol's own name or its qualified name). */
export async function definitionsNamed(db: SqlExecutor, names: readonly string[], source: string | null, limit: number): Promise<DefinitionRow[]> {
  if (names.length === 0) return []
  const { rows } = await db.query<DefinitionRow>(
    `SELECT s.name, s.qualified, s.symbol_type, s.start_line, s.end_line, c.id::int AS chunk_id, c.start_line AS chunk_start, c.chunk_text,
            p.slug, p.source_id, p.title, p.updated_at::text AS updated_at
     FROM code_symbols s JOIN content_chunks c ON c.id = s.chunk_id JOIN pages p ON p.id = s.page_id
     WHERE (s.name = ANY($1::text[]) OR s.qualified = ANY($1::text[])) AND ($2::text IS NULL OR p.source_id = $2)
     ORDER BY (s.qualified = ANY($1::text[])) DESC, p.slug, s.start_line
     LIMIT $3`,
    [names, source, limit],
  )
  return rows
}
