import type { SqlExecutor } from '../db/index.js'
import { NotFoundError } from '../errors/index.js'

export interface FileSymbol {
  name: string
  qualified: string
  symbolType: string
  startLine: number
  endLine: number
}

/** The symbols one code page defines, in file order (a code page's outline). */
export async function fileSymbols(db: SqlExecutor, slug: string, sourceId: string | null): Promise<{ slug: string; sourceId: string; symbols: FileSymbol[] }> {
  const { rows: pages } = await db.query<{ id: number; source_id: string }>('SELECT id, source_id FROM pages WHERE slug = $1 AND ($2::text IS NULL OR source_id = $2) ORDER BY source_id LIMIT 1', [
    slug,
    sourceId,
  ])
  const page = pages[0]
  if (!page) throw new NotFoundError('page_not_found', `No page ${slug}.`, { hint: 'Find code pages with `brain list --kind code`.' })
  const { rows } = await db.query<{ name: string; qualified: string; symbol_type: string; start_line: number; end_line: number }>(
    'SELECT name, qualified, symbol_type, start_line, end_line FROM code_symbols WHERE page_id = $1 ORDER BY start_line, end_line DESC, qualified',
    [page.id],
  )
  return {
    slug,
    sourceId: page.source_id,
    symbols: rows.map((r) => ({ name: r.name, qualified: r.qualified, symbolType: r.symbol_type, startLine: Number(r.start_line), endLine: Number(r.end_line) })),
  }
}
