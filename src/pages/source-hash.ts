import type { SqlExecutor } from '../db/index.js'

/**
 * Whether pages converted from this file (by its source URI) already carry this hash of the
 * original bytes: then the file is unchanged and converting it again is skipped. A page edited
 * since keeps its place until the file itself changes. A many-page file's pages may carry the
 * hashes of several versions (each keeps the hash of the version that last changed it), so a
 * file put back to the exact bytes of an earlier version is taken as unchanged.
 */
export async function isSourceHashCurrent(db: SqlExecutor, sourceId: string, sourceUri: string, sourceHash: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM pages WHERE source_id = $1 AND source_uri = $2 AND frontmatter ->> 'source_hash' = $3) AS found`, [
    sourceId,
    sourceUri,
    sourceHash,
  ])
  return rows[0]?.found === true
}

/** The `source_hash` each page converted from this file carries now, by slug. */
export async function sourceHashesBySlug(db: SqlExecutor, sourceId: string, sourceUri: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ slug: string; hash: string | null }>(`SELECT slug, frontmatter ->> 'source_hash' AS hash FROM pages WHERE source_id = $1 AND source_uri = $2`, [
    sourceId,
    sourceUri,
  ])
  return new Map(rows.filter((r) => r.hash !== null).map((r) => [r.slug, r.hash!]))
}
