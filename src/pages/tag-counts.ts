import type { SqlExecutor } from '../db/index.js'

export interface TagCount {
  tag: string
  pages: number
}

/** Every tag with the number of pages carrying it, most used first. */
export async function listTagCounts(db: SqlExecutor, limit: number): Promise<TagCount[]> {
  const { rows } = await db.query<TagCount>('SELECT tag, count(*)::integer AS pages FROM tags GROUP BY tag ORDER BY count(*) DESC, tag LIMIT $1', [limit])
  return rows.map((r) => ({ tag: r.tag, pages: Number(r.pages) }))
}
