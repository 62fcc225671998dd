import type { SqlExecutor } from '../db/index.js'
import { NotFoundError, UsageError } from '../errors/index.js'

export interface PageRef {
  id: number
  sourceId: string
  slug: string
}

/**
 * Finds the page a user means by a slug. With a source id, only that source; without one, the
 * slug may live in any source as long as it lives in exactly one, because `brain list` shows
 * pages of every source and a user copies slugs from there.
 */
export async function resolvePageRef(db: SqlExecutor, typed: string, sourceId?: string): Promise<PageRef> {
  // Stored slugs are composed (NFC); a slug pasted from a macOS file name may not be.
  const slug = typed.normalize('NFC')
  const { rows } =
    sourceId === undefined
      ? await db.query<{ id: number; source_id: string }>('SELECT id, source_id FROM pages WHERE slug = $1 ORDER BY source_id', [slug])
      : await db.query<{ id: number; source_id: string }>('SELECT id, source_id FROM pages WHERE slug = $1 AND source_id = $2', [slug, sourceId])
  if (rows.length === 0) {
    throw new NotFoundError('page_not_found', sourceId === undefined ? `No page ${slug}.` : `No page ${slug} in source ${sourceId}.`, {
      hint: sourceId === undefined ? 'List pages with `brain list`.' : `List the source's pages with \`brain list --source ${sourceId}\`.`,
    })
  }
  if (rows.length > 1) {
    const sources = rows.map((r) => r.source_id)
    throw new UsageError('ambiguous_slug', `${slug} exists in ${sources.length} sources: ${sources.join(', ')}.`, {
      hint: `Name the source with --source, for example \`--source ${sources[0]}\`.`,
    })
  }
  return { id: rows[0]!.id, sourceId: rows[0]!.source_id, slug }
}
