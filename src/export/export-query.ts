import type { SqlExecutor } from '../db/index.js'
import { findPagesByIds, type Page } from '../pages/index.js'

export interface ExportFilter {
  sourceId?: string
  /** Only slugs starting with this. */
  prefix?: string
  type?: string
  /** Code pages too (default: markdown only; git already holds code). */
  includeCode?: boolean
}

/** The pages an export writes, in source then slug order, read in batches; `window` takes one stretch of them. */
export async function pagesToExport(db: SqlExecutor, filter: ExportFilter, window?: { offset: number; limit: number }): Promise<Page[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM pages
     WHERE ($1::text IS NULL OR source_id = $1) AND ($2::text IS NULL OR starts_with(slug, $2))
       AND ($3::text IS NULL OR type = $3) AND ($4::boolean OR page_kind = 'markdown')
     ORDER BY source_id, slug
     OFFSET $5::integer LIMIT $6::integer`,
    [filter.sourceId ?? null, filter.prefix ?? null, filter.type ?? null, filter.includeCode ?? false, window?.offset ?? 0, window?.limit ?? null],
  )
  const pages: Page[] = []
  for (let i = 0; i < rows.length; i += BATCH)
    pages.push(
      ...(await findPagesByIds(
        db,
        rows.slice(i, i + BATCH).map((r) => r.id),
      )),
    )
  return pages
}

const BATCH = 500
