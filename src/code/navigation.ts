/**
 * code-def: where a symbol is defined (code-refs, in refs.ts, shares the location columns).
 */
import type { SqlExecutor } from '../db/index.js'
import { canonicalLanguage, requireSymbol, resolveLimit, splitSymbol } from './query-args.js'

/**
 * Definition types in rank order. The spec's list comes first; `method` (a superset: methods are
 * definitions too) ranks after it.
 */
export const DEFINITION_TYPES = ['function', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'contract', 'export statement', 'method'] as const

export const SNIPPET_CHARS = 500

export interface CodeLocation {
  slug: string
  sourceId: string
  file: string
  language: string | null
  symbolType: string | null
  startLine: number | null
  endLine: number | null
  snippet: string
}

export interface CodeDefinition extends CodeLocation {
  symbolName: string
  symbolNameQualified: string | null
}

export interface CodeReference extends CodeLocation {
  symbolName: string | null
}

export interface CodeDefQuery {
  symbol: string
  language?: string
  limit?: number
}

export interface LocationRow {
  chunk_id: number
  slug: string
  source_id: string
  file: string
  language: string | null
  symbol_type: string | null
  symbol_name: string | null
  symbol_name_qualified: string | null
  start_line: number | null
  end_line: number | null
  /** The chunk text without its header line. */
  body: string
  /** First line of the chunk (a definition may start further down a merged chunk). */
  chunk_start: number | null
}

type DefinitionRow = LocationRow & { symbol_name: string; symbol_name_qualified: string }

/** The chunk text without its header line. */
export const BODY = `substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1) AS body`

/** Columns shared by every code lookup, over `c` (content_chunks) and `p` (pages). */
export const LOCATION_COLUMNS = `c.id AS chunk_id, p.slug, p.source_id, coalesce(p.frontmatter->>'path', p.slug) AS file, c.language,
  c.symbol_type, c.symbol_name, c.symbol_name_qualified, c.start_line, c.end_line,
  substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1) AS body, c.start_line AS chunk_start`

/**
 * A chunk's qualified name (its symbol name when it has none) equals `value`, spelled so that
 * the indexes on both columns answer it.
 */
const chunkQualifiedIs = (value: string): string => `(c.symbol_name_qualified = ${value} OR (c.symbol_name_qualified IS NULL AND c.symbol_name = ${value}))`

/**
 * Definitions as one relation `defs`: the page's definition index (code_symbols), or, for a page
 * imported before that index existed, its chunks' own symbol metadata. `$2` is the list of
 * definition types; `match(alias)` filters by name.
 */
function definitionsSql(match: (name: string, qualifiedIs: (value: string) => string, topLevel: string) => string, withBody = true): string {
  return `WITH defs AS (
      SELECT s.chunk_id, s.page_id, s.name, s.qualified, s.symbol_type, s.start_line, s.end_line
      FROM code_symbols s
      WHERE s.symbol_type = ANY($2::text[]) AND ${match('s.name', (v) => `s.qualified = ${v}`, 's.qualified = s.name')}
      UNION ALL
      SELECT c.id, c.page_id, c.symbol_name, coalesce(c.symbol_name_qualified, c.symbol_name), c.symbol_type, c.start_line, c.end_line
      FROM content_chunks c
      WHERE c.symbol_type = ANY($2::text[]) AND c.symbol_name IS NOT NULL
        AND ${match('c.symbol_name', chunkQualifiedIs, 'c.parent_symbol_path IS NULL')}
        AND NOT EXISTS (SELECT 1 FROM code_symbols s2 WHERE s2.page_id = c.page_id))
    SELECT d.chunk_id, p.slug, p.source_id, coalesce(p.frontmatter->>'path', p.slug) AS file, c.language,
      d.symbol_type, d.name AS symbol_name, d.qualified AS symbol_name_qualified, d.start_line, d.end_line,
      ${withBody ? BODY : "''::text AS body"}, c.start_line AS chunk_start
    FROM defs d JOIN content_chunks c ON c.id = d.chunk_id JOIN pages p ON p.id = d.page_id
    WHERE p.page_kind = 'code'`
}

const STEM = `regexp_replace(p.slug, '^.*/|\\.[^./]*$', '', 'g')`

/**
 * Definitions of a symbol: a bare name matches the definition's name; a qualified one
 * (`Queue.submit`) its qualified name, or a top-level definition in a file named after the
 * qualifier (`open.openDatabase` for openDatabase in open.ts).
 */
export async function findDefinitionRows(db: SqlExecutor, symbol: string, language: string | null, limit: number): Promise<DefinitionRow[]> {
  const { qualifier, name } = splitSymbol(symbol)
  const match = (n: string, qualifiedIs: (value: string) => string, top: string): string => `(CASE WHEN $4::text IS NULL THEN ${n} = $1 ELSE ${qualifiedIs('$1')} OR (${n} = $5 AND ${top}) END)`
  const { rows } = await db.query<DefinitionRow>(
    `${definitionsSql(match)}
       AND ($3::text IS NULL OR c.language = $3)
       AND ($4::text IS NULL OR d.qualified = $1 OR ${STEM} = $4)
     ORDER BY array_position($2::text[], d.symbol_type), p.slug, d.start_line
     LIMIT $6`,
    [symbol, [...DEFINITION_TYPES], language, qualifier, name, limit],
  )
  return rows
}

/** Every definition with one of these names (bare last segments); `body` is left empty. */
export async function definitionsByNames(db: SqlExecutor, names: readonly string[]): Promise<DefinitionRow[]> {
  if (names.length === 0) return []
  const { rows } = await db.query<DefinitionRow>(
    `${definitionsSql((n) => `${n} = ANY($1::text[])`, false)}
     ORDER BY array_position($2::text[], d.symbol_type), p.slug, d.start_line`,
    [[...names], [...DEFINITION_TYPES]],
  )
  return rows
}

/** The definition's own lines out of its chunk, up to SNIPPET_CHARS. */
export function definitionSnippet(row: Pick<LocationRow, 'body' | 'start_line' | 'end_line' | 'chunk_start'>): string {
  if (row.start_line === null || row.chunk_start === null) return row.body.slice(0, SNIPPET_CHARS)
  const first = Math.max(0, row.start_line - row.chunk_start)
  const last = row.end_line === null ? undefined : row.end_line - row.chunk_start + 1
  return row.body.split('\n').slice(first, last).join('\n').slice(0, SNIPPET_CHARS)
}

export function toLocation(row: LocationRow, snippet: string): CodeLocation {
  return {
    slug: row.slug,
    sourceId: row.source_id,
    file: row.file,
    language: row.language,
    symbolType: row.symbol_type,
    startLine: row.start_line,
    endLine: row.end_line,
    snippet,
  }
}

export function toDefinition(row: DefinitionRow): CodeDefinition {
  return { ...toLocation(row, definitionSnippet(row)), symbolName: row.symbol_name, symbolNameQualified: row.symbol_name_qualified }
}

export async function codeDef(db: SqlExecutor, query: CodeDefQuery): Promise<CodeDefinition[]> {
  const symbol = requireSymbol('code_def', query.symbol)
  const limit = resolveLimit('code_def', query.limit)
  const rows = await findDefinitionRows(db, symbol, canonicalLanguage(query.language), limit)
  return rows.map(toDefinition)
}

/** Up to SNIPPET_CHARS of the body, starting at the line of the first match. */
export function snippetAround(body: string, needle: string): string {
  const at = body.toLowerCase().indexOf(needle.toLowerCase())
  if (at < 0) return body.slice(0, SNIPPET_CHARS)
  const lineStart = body.lastIndexOf('\n', at) + 1
  const start = at - lineStart > SNIPPET_CHARS / 2 ? at - SNIPPET_CHARS / 4 : lineStart
  return body.slice(start, start + SNIPPET_CHARS)
}
