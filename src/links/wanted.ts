/**
 * The loose ends of the graph: orphans (pages with no link in or out) and wanted pages
 * (unresolved link targets, with how many pages link to each).
 */
import type { SqlExecutor } from '../db/index.js'

export interface OrphanPage {
  slug: string
  sourceId: string
  title: string
  pageKind: string
}

export interface WantedPage {
  /** The target as first written (alphabetically); links differing only in case or spacing share one entry. */
  target: string
  /** The key links are resolved by. */
  key: string
  /** Pages linking to it. */
  pages: number
  links: number
  /** A few of the linking pages. */
  examples: string[]
}

export interface LooseEndQuery {
  sourceId?: string
  /** Orphans: markdown (default), code, or all. */
  kind?: 'markdown' | 'code' | 'all'
  /** Wanted pages: also list targets that name an attachment file (see ATTACHMENT_KEY). */
  attachments?: boolean
  limit?: number
  offset?: number
}

export async function listOrphans(db: SqlExecutor, query: LooseEndQuery = {}): Promise<OrphanPage[]> {
  const kind = query.kind ?? 'markdown'
  const { rows } = await db.query<{ slug: string; source_id: string; title: string; page_kind: string }>(
    `SELECT p.slug, p.source_id, p.title, p.page_kind FROM pages p
     WHERE ($1::text IS NULL OR p.source_id = $1) AND ($2::text = 'all' OR p.page_kind = $2)
       AND NOT EXISTS (SELECT 1 FROM links l WHERE l.from_page_id = p.id)
       AND NOT EXISTS (SELECT 1 FROM links l WHERE l.to_page_id = p.id)
     ORDER BY p.slug, p.source_id LIMIT $3 OFFSET $4`,
    [query.sourceId ?? null, kind, query.limit ?? 100, query.offset ?? 0],
  )
  return rows.map((r) => ({ slug: r.slug, sourceId: r.source_id, title: r.title, pageKind: r.page_kind }))
}

/**
 * Keys of links to attachment files: images, audio, video, archives, spreadsheets, old slide
 * formats and drawings. No import makes a page of such a file, so a link to one never resolves, and listing
 * every embedded picture of a vault as a wanted page would bury the notes people mean to write.
 */
const ATTACHMENT_KEY = String.raw`\.(png|jpe?g|gif|bmp|svg|webp|avif|ico|tiff?|heic|mp3|wav|m4a|ogg|oga|flac|aac|opus|3gp|mp4|webm|mkv|mov|ogv|avi|zip|gz|tgz|7z|rar|csv|tsv|xlsx?|ppt|ods|odp|excalidraw)$`

export async function listUnresolved(db: SqlExecutor, query: LooseEndQuery = {}): Promise<WantedPage[]> {
  const { rows } = await db.query<{ target: string; key: string; pages: number; links: number; examples: string[] }>(
    `SELECT min(l.target_text) AS target, l.target_key AS key, count(DISTINCT l.from_page_id) AS pages, count(*) AS links,
            (array_agg(DISTINCT f.slug ORDER BY f.slug))[1:3] AS examples
     FROM links l JOIN pages f ON f.id = l.from_page_id
     WHERE l.to_page_id IS NULL AND l.target_text IS NOT NULL AND ($1::text IS NULL OR f.source_id = $1)
       AND ($4::boolean OR l.target_key !~ $5)
     GROUP BY l.target_key
     ORDER BY count(DISTINCT l.from_page_id) DESC, l.target_key LIMIT $2 OFFSET $3`,
    [query.sourceId ?? null, query.limit ?? 100, query.offset ?? 0, query.attachments ?? false, ATTACHMENT_KEY],
  )
  return rows.map((r) => ({ target: r.target, key: r.key, pages: Number(r.pages), links: Number(r.links), examples: r.examples }))
}
