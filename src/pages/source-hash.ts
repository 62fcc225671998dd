import type { SqlExecutor } from '../db/types.js'

/**
 * Whether the pages converted from this file (by its source URI) were last written from these
 * same bytes: then the file is unchanged and converting it again is skipped. The newest page
 * decides, because a new version of a many-page file rewrites only the pages it changed, and
 * the pages it left as they were keep the hash of an older version.
 */
export async function isSourceHashCurrent(db: SqlExecutor, sourceId: string, sourceUri: string, sourceHash: string): Promise<boolean> {
  const { rows } = await db.query<{ hash: string | null }>(
    `SELECT frontmatter ->> 'source_hash' AS hash FROM pages WHERE source_id = $1 AND source_uri = $2 ORDER BY updated_at DESC, id DESC LIMIT 1`,
    [sourceId, sourceUri],
  )
  return rows[0]?.hash === sourceHash
}

/** The `source_hash` each page converted from this file carries now, by slug. */
export async function sourceHashesBySlug(db: SqlExecutor, sourceId: string, sourceUri: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ slug: string; hash: string | null }>(`SELECT slug, frontmatter ->> 'source_hash' AS hash FROM pages WHERE source_id = $1 AND source_uri = $2`, [
    sourceId,
    sourceUri,
  ])
  return new Map(rows.filter((r) => r.hash !== null).map((r) => [r.slug, r.hash!]))
}
