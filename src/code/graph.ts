/**
 * Callers and callees, direct or transitive (blast radius). The walk goes level by level, one
 * query per level whatever the frontier's size, over the union of chunk edges and by-name edges.
 * A visited set guards against cycles, `depth` and `limit` cap the walk, and every result
 * carries the path it was reached by.
 */
import type { SqlExecutor } from '../db/index.js'
import { UsageError } from '../errors/index.js'
import { BODY, definitionsByNames, definitionSnippet, findDefinitionRows, toDefinition, toLocation, type CodeDefinition, type CodeLocation, type LocationRow } from './navigation.js'
import { lastSegment } from './edges.js'
import { callerKey, callerLevel, type FrontierItem } from './caller-level.js'
import { requireSymbol, resolveLimit, splitSymbol, type CodeCommand } from './query-args.js'

export const DEFAULT_GRAPH_DEPTH = 1
export const MAX_GRAPH_DEPTH = 10
export const DEFAULT_GRAPH_LIMIT = 50
/** Definitions considered as roots of a walk; more than one means the name is ambiguous. */
const MAX_ROOTS = 50

export interface CodeGraphQuery {
  symbol: string
  /** Hops to walk, 1 (direct, default) to 10. */
  depth?: number
  /** Most results returned (default 50); the walk stops once reached. */
  limit?: number
}

export interface CodeGraphNode extends Omit<CodeLocation, 'slug' | 'sourceId' | 'file'> {
  /** Null for a callee known only by name (defined outside the brain). */
  slug: string | null
  sourceId: string | null
  file: string | null
  chunkId: number | null
  symbolName: string | null
  symbolNameQualified: string | null
  /** 1 for direct callers/callees. */
  depth: number
  /** Labels from the root symbol to this node, both ends included. */
  path: string[]
  edgeType: string
  /** `chunk`: a resolved edge; `symbol`: matched by name. */
  via: 'chunk' | 'symbol'
  /** Callees by name: how many definitions share the name (more than one is ambiguous). */
  candidates: number
}

export interface CodeGraphResponse {
  symbol: string
  direction: 'callers' | 'callees'
  depth: number
  /** Where the symbol is defined; several definitions make the result ambiguous. */
  definitions: CodeDefinition[]
  ambiguous: boolean
  /** The limit cut the walk short. */
  truncated: boolean
  results: CodeGraphNode[]
}

type Located = LocationRow

function resolveDepth(command: CodeCommand, depth: number | undefined): number {
  if (depth === undefined) return DEFAULT_GRAPH_DEPTH
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_GRAPH_DEPTH) {
    throw new UsageError(`${command}_invalid_depth`, `depth must be a whole number from 1 to ${MAX_GRAPH_DEPTH}, not ${String(depth)}.`)
  }
  return depth
}

function label(row: Pick<Located, 'symbol_name' | 'symbol_name_qualified' | 'file' | 'start_line'>): string {
  return row.symbol_name_qualified ?? row.symbol_name ?? `${row.file}:${row.start_line ?? 1}`
}

function fileParts(slug: string | null): { fileStem: string | null; dirName: string | null } {
  if (slug === null) return { fileStem: null, dirName: null }
  const parts = slug.split('/')
  const base = parts[parts.length - 1]!
  return { fileStem: base.replace(/\.[^.]*$/, ''), dirName: parts.length > 1 ? parts[parts.length - 2]! : null }
}

function frontierOf(row: Located, path: string[]): FrontierItem {
  const qualified = row.symbol_name_qualified ?? row.symbol_name
  return { chunkId: Number(row.chunk_id), name: qualified === null ? null : lastSegment(qualified), qualified, ...fileParts(row.slug), path }
}

/**
 * Whether a by-name edge `target` can mean this definition. A bare call always can. A call on
 * a receiver can when the receiver is the definition's class, an instance variable (lower-case,
 * type unknown) for a method, or the file or package for a top-level function.
 * The callers walk applies the same rule in SQL (`RECEIVER_MATCHES` in caller-level.ts): the
 * two must agree.
 */
export function targetMatches(target: string, item: Pick<FrontierItem, 'qualified' | 'name' | 'fileStem' | 'dirName' | 'anyReceiver'>): boolean {
  const { qualifier } = splitSymbol(target)
  if (qualifier === null || item.anyReceiver === true) return true
  if (target === item.qualified) return true
  const owner = item.qualified !== null ? splitSymbol(item.qualified).qualifier : null
  if (owner !== null) return qualifier === owner || /^[a-z_]/.test(qualifier)
  return qualifier === item.fileStem || qualifier === item.dirName
}

function toNode(row: Located, depth: number, path: string[], edgeType: string, via: 'chunk' | 'symbol', candidates: number): CodeGraphNode {
  return {
    // Callees fill the snippet in for the final results only (fillSnippets): their walk never
    // reads chunk text. A callers level reads it for the rows it returns, which are results.
    ...toLocation(row, ''),
    chunkId: Number(row.chunk_id),
    symbolName: row.symbol_name,
    symbolNameQualified: row.symbol_name_qualified,
    depth,
    path,
    edgeType,
    via,
    candidates,
  }
}

async function roots(db: SqlExecutor, symbol: string): Promise<{ definitions: CodeDefinition[]; frontier: FrontierItem[] }> {
  const rows = await findDefinitionRows(db, symbol, null, MAX_ROOTS)
  const definitions = rows.map(toDefinition)
  if (rows.length > 0) return { definitions, frontier: rows.map((r) => frontierOf(r, [label(r)])) }
  // Not defined in the brain (a library function): its by-name callers can still be found.
  const { qualifier, name } = splitSymbol(symbol)
  return { definitions, frontier: [{ chunkId: null, name, qualified: symbol, fileStem: null, dirName: null, anyReceiver: qualifier === null, path: [symbol] }] }
}

/** Chunks that call the symbol, transitively up to `depth` hops. */
export async function getCallersOf(db: SqlExecutor, query: CodeGraphQuery): Promise<CodeGraphResponse> {
  const symbol = requireSymbol('code_callers', query.symbol)
  const depth = resolveDepth('code_callers', query.depth)
  const limit = resolveLimit('code_callers', query.limit, DEFAULT_GRAPH_LIMIT)
  const { definitions, frontier: start } = await roots(db, symbol)
  const visited = new Set<string>(start.map((f) => callerKey(f.chunkId, f.qualified)))
  const results: CodeGraphNode[] = []
  let frontier = start
  let truncated = false
  for (let level = 1; level <= depth && frontier.length > 0 && !truncated; level++) {
    const next: FrontierItem[] = []
    // One row past what the limit leaves tells the walk it was cut short.
    const rows = await callerLevel(db, frontier, visited, limit - results.length + 1)
    for (const row of rows) {
      if (results.length >= limit) {
        truncated = true
        break
      }
      visited.add(callerKey(row.chunk_id, row.from_symbol))
      const path = [label(row), ...frontier[row.i]!.path]
      results.push({ ...toNode(row, level, path, row.edge_type, row.via, 1), snippet: definitionSnippet(row) })
      // Top-level code is nobody's callee: the walk goes on from definitions only.
      if (row.from_symbol !== null) next.push(frontierOf(row, path))
    }
    frontier = next
  }
  return { symbol, direction: 'callers', depth, definitions, ambiguous: definitions.length > 1, truncated, results: ordered(results) }
}

interface EdgeOutRow {
  i: number
  edge_type: string
  via: 'chunk' | 'symbol'
  to_chunk: number | null
  target: string | null
}

/** Edges leaving each frontier definition (calls inside a class count for the class). */
async function calleeEdges(db: SqlExecutor, frontier: readonly FrontierItem[]): Promise<EdgeOutRow[]> {
  // Arrays rather than a JSON record set, so the planner knows the frontier's size.
  const { rows } = await db.query<EdgeOutRow>(
    `WITH f AS (SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[]) AS f(i, chunk, qual)),
          -- A definition larger than the budget spans several chunks of its page.
          fc AS (
            SELECT f.i, f.qual, c2.id AS chunk FROM f JOIN content_chunks c1 ON c1.id = f.chunk
            JOIN content_chunks c2 ON c2.page_id = c1.page_id AND (f.qual IS NOT NULL OR c2.id = f.chunk)),
          e AS (
            SELECT fc.i, e.edge_type, 'chunk' AS via, e.to_chunk_id AS to_chunk, e.to_symbol AS target, e.from_symbol, fc.qual
              FROM fc JOIN code_edges_chunk e ON e.from_chunk_id = fc.chunk
            UNION ALL
            SELECT fc.i, s.edge_type, 'symbol', NULL::bigint, s.to_symbol_qualified, s.from_symbol, fc.qual
              FROM fc JOIN code_edges_symbol s ON s.from_chunk_id = fc.chunk)
     SELECT i, edge_type, via, to_chunk, target FROM e
     WHERE (qual IS NULL AND from_symbol IS NULL) OR from_symbol = qual OR starts_with(from_symbol, qual || '.')
     ORDER BY i, target, to_chunk`,
    [frontier.map((_, i) => i), frontier.map((f) => String(f.chunkId)), frontier.map((f) => f.qualified)],
  )
  return rows
}

/** The definitions a callee can mean: the chunk edge's own target, or by name (qualified first). */
function definitionsFor(edge: EdgeOutRow, byName: Map<string, Located[]>): Located[] {
  const target = edge.target!
  const all = byName.get(lastSegment(target)) ?? []
  if (edge.to_chunk !== null) {
    const own = all.filter((r) => Number(r.chunk_id) === Number(edge.to_chunk) && r.symbol_name_qualified === target)
    if (own.length > 0) return own.slice(0, 1)
  }
  const exact = all.filter((r) => r.symbol_name_qualified === target)
  if (exact.length > 0) return exact
  return all.filter((r) => targetMatches(target, frontierOf(r, [])))
}

/** Snippets of the final results, read in one query. */
async function fillSnippets(db: SqlExecutor, nodes: CodeGraphNode[]): Promise<CodeGraphNode[]> {
  const ids = [...new Set(nodes.flatMap((n) => (n.chunkId === null ? [] : [n.chunkId])))]
  if (ids.length === 0) return nodes
  const { rows } = await db.query<{ id: number; body: string; chunk_start: number | null }>(`SELECT c.id, ${BODY}, c.start_line AS chunk_start FROM content_chunks c WHERE c.id = ANY($1::bigint[])`, [
    ids.map(String),
  ])
  const byId = new Map(rows.map((r) => [Number(r.id), r]))
  return nodes.map((n) => {
    const chunk = n.chunkId === null ? undefined : byId.get(n.chunkId)
    if (chunk === undefined) return n
    return { ...n, snippet: definitionSnippet({ body: chunk.body, chunk_start: chunk.chunk_start, start_line: n.startLine, end_line: n.endLine }) }
  })
}

/** How sure a result is: resolved or unique (0), one of several definitions (1), known by name only (2). */
function tier(node: CodeGraphNode): number {
  if (node.file === null) return 2
  return node.candidates > 1 ? 1 : 0
}

/** Nearest first; within a depth, the surest results first, then by file and line. */
function ordered(results: CodeGraphNode[]): CodeGraphNode[] {
  return results
    .map((node, index) => ({ node, index }))
    .sort(
      (a, b) =>
        a.node.depth - b.node.depth || tier(a.node) - tier(b.node) || (a.node.file ?? '').localeCompare(b.node.file ?? '') || (a.node.startLine ?? 0) - (b.node.startLine ?? 0) || a.index - b.index,
    )
    .map((x) => x.node)
}

function unresolvedNode(target: string, depth: number, path: string[], edgeType: string): CodeGraphNode {
  const { name } = splitSymbol(target)
  return {
    slug: null,
    sourceId: null,
    file: null,
    language: null,
    symbolType: null,
    startLine: null,
    endLine: null,
    snippet: '',
    chunkId: null,
    symbolName: name,
    symbolNameQualified: target,
    depth,
    path,
    edgeType,
    via: 'symbol',
    candidates: 0,
  }
}

/** What the symbol calls, transitively up to `depth` hops; callees known only by name are leaves. */
export async function getCalleesOf(db: SqlExecutor, query: CodeGraphQuery): Promise<CodeGraphResponse> {
  const symbol = requireSymbol('code_callees', query.symbol)
  const depth = resolveDepth('code_callees', query.depth)
  const limit = resolveLimit('code_callees', query.limit, DEFAULT_GRAPH_LIMIT)
  const { definitions, frontier: start } = await roots(db, symbol)
  const visited = new Set<string>(start.map((f) => `c${f.chunkId}\u0000${f.qualified ?? ''}`))
  const results: CodeGraphNode[] = []
  let frontier = start.filter((f) => f.chunkId !== null)
  let truncated = false
  // The node is built only once it is known to be new: a level may offer thousands of targets.
  const add = (key: string, node: () => CodeGraphNode): boolean => {
    if (visited.has(key)) return false
    if (results.length >= limit) {
      truncated = true
      return false
    }
    visited.add(key)
    results.push(node())
    return true
  }
  for (let level = 1; level <= depth && frontier.length > 0 && !truncated; level++) {
    const edges = await calleeEdges(db, frontier)
    const byName = new Map<string, Located[]>()
    for (const row of await definitionsByNames(db, [...new Set(edges.flatMap((e) => (e.target === null ? [] : [lastSegment(e.target)])))])) {
      byName.set(row.symbol_name!, [...(byName.get(row.symbol_name!) ?? []), row])
    }
    const next: FrontierItem[] = []
    // A call resolved on its own page is stored as a chunk edge and by name; the chunk edge wins.
    const resolved = new Set(edges.filter((e) => e.via === 'chunk').map((e) => `${e.i}\u0000${e.target}`))
    for (const edge of edges) {
      if (truncated) break
      if (edge.via === 'symbol' && resolved.has(`${edge.i}\u0000${edge.target}`)) continue
      const from = frontier[edge.i]!
      const targets = edge.target === null ? [] : definitionsFor(edge, byName)
      if (targets.length === 0 && edge.target !== null) {
        add(`s${edge.target}`, () => unresolvedNode(edge.target!, level, [...from.path, edge.target!], edge.edge_type))
        continue
      }
      for (const row of targets) {
        const path = (): string[] => [...from.path, label(row)]
        if (add(`c${row.chunk_id}\u0000${row.symbol_name_qualified ?? ''}`, () => toNode(row, level, path(), edge.edge_type, edge.via, targets.length))) {
          next.push(frontierOf(row, results[results.length - 1]!.path))
        }
      }
    }
    frontier = next
  }
  return { symbol, direction: 'callees', depth, definitions, ambiguous: definitions.length > 1, truncated, results: await fillSnippets(db, ordered(results)) }
}
