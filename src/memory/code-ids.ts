/**
 * Code identifiers in a conversation turn and their definitions in the active source's code.
 * Only what looks like code counts: a word in backticks, `CamelCase`, `lowerCamel`,
 * `snake_case`, or a `dotted.path`; plain words never query the code index.
 */
import type { SqlExecutor } from '../db/index.js'

const BACKTICKED = /`([^`\n]{1,200})`/g
const IDENT_IN_CODE = /[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*/
const CAMEL = /\b(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)\b/g
const SNAKE = /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g
const DOTTED = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b/g
const MAX_IDENTIFIERS = 20
/** A name defined in more places than this says nothing about which one the turn means. */
const MAX_DEFINITIONS_PER_NAME = 3

function looksLikeCode(word: string): boolean {
  return /[a-z][A-Z]|[A-Z][a-z0-9]+[A-Z]|_/.test(word)
}

interface CodeIdentifiers {
  /** Bare names (a definition's own name). */
  names: string[]
  /** Qualified names as written (`Queue.submit`, `mod::fn`), looked up whole. */
  qualified: string[]
}

/** The identifiers a turn names, in order of appearance. */
export function codeIdentifiers(text: string): CodeIdentifiers {
  const names = new Set<string>()
  const qualified = new Set<string>()
  const addQualified = (raw: string, force: boolean): void => {
    const parts = raw.split(/\.|::|#/)
    if (parts.length === 1) {
      if (force || looksLikeCode(raw)) names.add(raw)
      return
    }
    qualified.add(raw)
    const last = parts[parts.length - 1]!
    if (force || looksLikeCode(last)) names.add(last)
  }
  for (const m of text.matchAll(BACKTICKED)) {
    const ident = IDENT_IN_CODE.exec(m[1]!)?.[0]
    if (ident && ident.length >= 3) addQualified(ident, true)
  }
  const prose = text.replace(BACKTICKED, ' ')
  // `e.g` and `i.e` are prose: a path of code has no one-letter segment.
  for (const m of prose.matchAll(DOTTED)) if (m[0].split('.').every((part) => part.length >= 2)) addQualified(m[0], false)
  for (const m of prose.replace(DOTTED, ' ').matchAll(CAMEL)) names.add(m[0])
  for (const m of prose.replace(DOTTED, ' ').matchAll(SNAKE)) names.add(m[0])
  return { names: [...names].slice(0, MAX_IDENTIFIERS), qualified: [...qualified].slice(0, MAX_IDENTIFIERS) }
}

export interface CodeDefinitionHit {
  pageId: number
  slug: string
  sourceId: string
  name: string
  qualified: string
  symbolType: string
  line: number | null
  signature: string
}

interface DefinitionRow {
  page_id: string | number
  slug: string
  source_id: string
  name: string
  qualified: string
  symbol_type: string
  start_line: number | null
  chunk_start: number | null
  chunk_text: string
}

/** The line of the definition that names it, out of its chunk; the first line when none does. */
function signatureOf(row: DefinitionRow): string {
  const body = row.chunk_text.slice(row.chunk_text.indexOf('\n') + 1).split('\n')
  const from = row.start_line !== null && row.chunk_start !== null ? Math.max(0, row.start_line - row.chunk_start) : 0
  const lines = body
    .slice(from, from + 12)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  const naming = lines.find((l) => l.includes(row.name) && !/^(?:\/\/|\/?\*|#(?!\[)|--)/.test(l))
  return (naming ?? lines[0] ?? '').slice(0, 160)
}

/** Definitions of the identifiers in the code pages of one source; a name with too many is left out. */
export async function findCodeDefinitions(db: SqlExecutor, sourceId: string, ids: CodeIdentifiers): Promise<CodeDefinitionHit[]> {
  if (ids.names.length === 0 && ids.qualified.length === 0) return []
  const { rows } = await db.query<DefinitionRow>(
    `SELECT s.page_id, p.slug, p.source_id, s.name, s.qualified, s.symbol_type, s.start_line, c.start_line AS chunk_start, c.chunk_text
     FROM code_symbols s
     JOIN pages p ON p.id = s.page_id
     JOIN content_chunks c ON c.id = s.chunk_id
     WHERE (s.name = ANY($2::text[]) OR s.qualified = ANY($3::text[])) AND p.source_id = $1 AND p.page_kind = 'code'
     ORDER BY p.slug, s.start_line
     LIMIT 200`,
    [sourceId, ids.names, ids.qualified],
  )
  const byName = new Map<string, DefinitionRow[]>()
  for (const row of rows) {
    const key = ids.qualified.includes(row.qualified) ? row.qualified : row.name
    byName.set(key, [...(byName.get(key) ?? []), row])
  }
  const order = [...ids.qualified, ...ids.names]
  const hits: CodeDefinitionHit[] = []
  for (const key of order) {
    const found = byName.get(key)
    if (!found || found.length > MAX_DEFINITIONS_PER_NAME) continue
    byName.delete(key)
    for (const row of found) {
      hits.push({
        pageId: Number(row.page_id),
        slug: row.slug,
        sourceId: row.source_id,
        name: row.name,
        qualified: row.qualified,
        symbolType: row.symbol_type,
        line: row.start_line,
        signature: signatureOf(row),
      })
    }
  }
  return hits
}
