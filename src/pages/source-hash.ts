import type { SqlExecutor } from '../db/types.js'

/**
 * Whether pages converted from this file (by its source URI) already carry this hash of the
 * original bytes: then the file is unchanged and converting it again is skipped.
 */
export async function hasPagesWithSourceHash(db: SqlExecutor, sourceId: string, sourceUri: string, sourceHash: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM pages WHERE source_id = $1 AND source_uri = $2 AND frontmatter ->> 'source_hash' = $3) AS found`, [
    sourceId,
    sourceUri,
    sourceHash,
  ])
  return rows[0]?.found === true
}
