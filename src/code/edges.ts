/**
 * Call-graph edges: `code_edges_chunk` (callee's defining chunk known) and `code_edges_symbol`
 * (callee known by name only). Readers take both as one union; a name edge is never promoted to
 * a chunk edge, because the chunk a name resolves to changes as pages are re-imported.
 */
import type { SqlExecutor } from '../db/index.js'
import { ValidationError } from '../errors/index.js'
import type { PageCodeGraph } from './page-edges.js'

export interface CodeEdgeInput {
  fromChunkId: number
  /** The callee's defining chunk, when known. */
  toChunkId?: number | null
  /** The callee's qualified name; required when toChunkId is absent. */
  toSymbolQualified?: string | null
  edgeType: string
  sourceId: string
  /** Qualified name of the definition the call sits in. */
  fromSymbol?: string | null
}

export interface CodeEdgeResult {
  fromChunkId: number
  toChunkId: number | null
  toSymbolQualified: string | null
  edgeType: string
  sourceId: string
  fromSymbol: string | null
  /** Which table the edge lives in. */
  via: 'chunk' | 'symbol'
}

/** The last segment of a qualified name: `Queue.submit` → `submit`, `a::b` → `b`. */
export function lastSegment(qualified: string): string {
  const parts = qualified.split(/::|\.|#|->/)
  return parts[parts.length - 1] || qualified
}

/** Inserts edges (duplicates ignored), one statement per table; returns how many were new. */
export async function addCodeEdges(db: SqlExecutor, edges: readonly CodeEdgeInput[]): Promise<number> {
  const chunkEdges = edges.filter((e) => e.toChunkId != null)
  const symbolEdges = edges.filter((e) => e.toChunkId == null)
  const unnamed = symbolEdges.find((e) => !e.toSymbolQualified)
  if (unnamed !== undefined) {
    throw new ValidationError('code_edge_requires_target', `Edge from chunk ${unnamed.fromChunkId} names no target.`, {
      hint: 'Give toChunkId or toSymbolQualified.',
    })
  }
  let added = 0
  if (chunkEdges.length > 0) {
    const payload = chunkEdges.map((e) => ({ f: e.fromChunkId, t: e.toChunkId, q: e.toSymbolQualified ?? null, k: e.edgeType, s: e.sourceId, fs: e.fromSymbol ?? null }))
    const { rowCount } = await db.query(
      `INSERT INTO code_edges_chunk (from_chunk_id, to_chunk_id, to_symbol, edge_type, source_id, from_symbol)
       SELECT x.f, x.t, x.q, x.k, x.s, x.fs FROM jsonb_to_recordset($1::jsonb) AS x(f bigint, t bigint, q text, k text, s text, fs text)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(payload)],
    )
    added += rowCount
  }
  if (symbolEdges.length > 0) {
    const payload = symbolEdges.map((e) => ({ f: e.fromChunkId, q: e.toSymbolQualified, n: lastSegment(e.toSymbolQualified!), k: e.edgeType, s: e.sourceId, fs: e.fromSymbol ?? null }))
    const { rowCount } = await db.query(
      `INSERT INTO code_edges_symbol (from_chunk_id, to_symbol_qualified, to_symbol_name, edge_type, source_id, from_symbol)
       SELECT x.f, x.q, x.n, x.k, x.s, x.fs FROM jsonb_to_recordset($1::jsonb) AS x(f bigint, q text, n text, k text, s text, fs text)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(payload)],
    )
    added += rowCount
  }
  return added
}

/** Removes every edge leaving the given chunks; returns how many went. */
export async function deleteCodeEdgesForChunks(db: SqlExecutor, chunkIds: readonly number[]): Promise<number> {
  if (chunkIds.length === 0) return 0
  const { rows } = await db.query<{ n: number }>(
    `WITH c AS (DELETE FROM code_edges_chunk WHERE from_chunk_id = ANY($1::bigint[]) RETURNING 1),
          s AS (DELETE FROM code_edges_symbol WHERE from_chunk_id = ANY($1::bigint[]) RETURNING 1)
     SELECT (SELECT count(*) FROM c) + (SELECT count(*) FROM s) AS n`,
    [chunkIds.map(String)],
  )
  return Number(rows[0]?.n ?? 0)
}

interface EdgeRow {
  from_chunk_id: number
  to_chunk_id: number | null
  to_symbol_qualified: string | null
  edge_type: string
  source_id: string
  from_symbol: string | null
  via: 'chunk' | 'symbol'
}

/** The edges leaving one chunk, chunk edges first, then by target. */
export async function getEdgesByChunk(db: SqlExecutor, chunkId: number): Promise<CodeEdgeResult[]> {
  const { rows } = await db.query<EdgeRow>(
    `SELECT from_chunk_id, to_chunk_id, to_symbol AS to_symbol_qualified, edge_type, source_id, from_symbol, 'chunk' AS via
       FROM code_edges_chunk WHERE from_chunk_id = $1
     UNION ALL
     SELECT from_chunk_id, NULL::bigint, to_symbol_qualified, edge_type, source_id, from_symbol, 'symbol'
       FROM code_edges_symbol WHERE from_chunk_id = $1
     ORDER BY via, to_chunk_id, to_symbol_qualified, edge_type`,
    [chunkId],
  )
  return rows.map((r) => ({
    fromChunkId: Number(r.from_chunk_id),
    toChunkId: r.to_chunk_id === null ? null : Number(r.to_chunk_id),
    toSymbolQualified: r.to_symbol_qualified,
    edgeType: r.edge_type,
    sourceId: r.source_id,
    fromSymbol: r.from_symbol,
    via: r.via,
  }))
}

/**
 * Replaces a code page's definitions and the edges leaving its chunks, inside the transaction
 * that wrote the chunks: one delete (skipped for a new page) and one insert statement whatever
 * the number of definitions and edges.
 *
 * A call resolved to a definition on the same page is stored twice: as a chunk edge, and by its
 * qualified name. The chunk edge table is unique per (from chunk, to chunk, type), so when
 * several small definitions share a merged chunk, only the by-name row keeps each call apart.
 */
export async function replacePageCodeGraph(tx: SqlExecutor, pageId: number, sourceId: string, graph: PageCodeGraph, isNewPage: boolean): Promise<void> {
  if (!isNewPage) {
    await tx.query(
      `WITH mine AS (SELECT id FROM content_chunks WHERE page_id = $1),
            c AS (DELETE FROM code_edges_chunk WHERE from_chunk_id IN (SELECT id FROM mine)),
            s AS (DELETE FROM code_edges_symbol WHERE from_chunk_id IN (SELECT id FROM mine))
       DELETE FROM code_symbols WHERE page_id = $1`,
      [pageId],
    )
  }
  if (graph.edges.length === 0 && graph.symbols.length === 0) return
  const edges = graph.edges.map((e) => ({ f: e.fromIndex, fs: e.fromSymbol, t: e.toIndex, q: e.target, n: e.name, k: e.edgeType }))
  const symbols = graph.symbols.map((s) => ({ i: s.chunkIndex, n: s.name, q: s.qualified, t: s.symbolType, a: s.startLine, b: s.endLine }))
  await tx.query(
    `WITH chunks AS (SELECT id, chunk_index, start_line FROM content_chunks WHERE page_id = $1),
          sym AS (SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(i int, n text, q text, t text, a int, b int)),
          syms AS (INSERT INTO code_symbols (page_id, chunk_id, name, qualified, symbol_type, start_line, end_line)
                   SELECT $1, c.id, sym.n, sym.q, sym.t, sym.a, sym.b FROM sym JOIN chunks c ON c.chunk_index = sym.i),
          x AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(f int, fs text, t int, q text, n text, k text)),
          -- The caller's place, as the callers walk sorts it (migration 0240 says why).
          resolved AS (
            SELECT fc.id AS from_id, tc.id AS to_id, x.fs, x.q, x.n, x.k, (SELECT slug FROM pages WHERE id = $1) AS slug,
              coalesce((SELECT min(sym.a) FROM sym WHERE sym.i = x.f AND sym.q = x.fs), fc.start_line) AS line
            FROM x JOIN chunks fc ON fc.chunk_index = x.f
            LEFT JOIN chunks tc ON x.t IS NOT NULL AND tc.chunk_index = x.t),
          c AS (INSERT INTO code_edges_chunk (from_chunk_id, to_chunk_id, to_symbol, edge_type, source_id, from_symbol, from_slug, from_line)
                SELECT from_id, to_id, q, k, $4, fs, slug, line FROM resolved WHERE to_id IS NOT NULL ON CONFLICT DO NOTHING)
     INSERT INTO code_edges_symbol (from_chunk_id, to_symbol_qualified, to_symbol_name, edge_type, source_id, from_symbol, from_slug, from_line)
     SELECT from_id, q, n, k, $4, fs, slug, line FROM resolved ON CONFLICT DO NOTHING`,
    [pageId, JSON.stringify(edges), JSON.stringify(symbols), sourceId],
  )
}

/** A chunk of a new page as its insert returned it. */
interface NewChunkRow {
  id: number
  pageId: number
  chunkIndex: number
  startLine: number | null
}

/**
 * The definitions and outgoing edges of code pages written by one bulk import batch, in one
 * statement: what replacePageCodeGraph writes for each new page, in the same order (page by page,
 * each page's rows as given), so that a batch of a hundred files costs one statement, not one each.
 * The pages' chunks come from their insert: looked up in content_chunks, the embedded engine
 * (never analysed while an import runs) planned a scan of the whole table per batch, a cost that
 * grew with every file imported.
 */
export async function insertCodeGraphsOfNewPages(tx: SqlExecutor, pages: ReadonlyArray<{ pageId: number; sourceId: string; graph: PageCodeGraph }>, chunks: readonly NewChunkRow[]): Promise<void> {
  const withRows = pages.filter((p) => p.graph.edges.length > 0 || p.graph.symbols.length > 0)
  if (withRows.length === 0) return
  const pageIds = new Set(withRows.map((p) => p.pageId))
  const theirs = chunks.filter((c) => pageIds.has(c.pageId))
  const edges = withRows.flatMap((p) => p.graph.edges.map((e) => ({ p: p.pageId, f: e.fromIndex, fs: e.fromSymbol, t: e.toIndex, q: e.target, n: e.name, k: e.edgeType }))).map((e, o) => ({ ...e, o }))
  const symbols = withRows
    .flatMap((p) => p.graph.symbols.map((s) => ({ p: p.pageId, i: s.chunkIndex, n: s.name, q: s.qualified, t: s.symbolType, a: s.startLine, b: s.endLine })))
    .map((s, o) => ({ ...s, o }))
  await tx.query(
    `WITH pg AS (SELECT * FROM unnest($1::bigint[], $4::text[]) AS pg(page_id, source_id)),
          chunks AS (SELECT * FROM unnest($5::bigint[], $6::bigint[], $7::int[], $8::int[]) AS c(id, page_id, chunk_index, start_line)),
          sym AS (SELECT * FROM jsonb_to_recordset($3::jsonb) AS x(p bigint, i int, n text, q text, t text, a int, b int, o int)),
          syms AS (INSERT INTO code_symbols (page_id, chunk_id, name, qualified, symbol_type, start_line, end_line)
                   SELECT sym.p, c.id, sym.n, sym.q, sym.t, sym.a, sym.b FROM sym JOIN chunks c ON c.page_id = sym.p AND c.chunk_index = sym.i ORDER BY sym.o),
          x AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS x(p bigint, f int, fs text, t int, q text, n text, k text, o int)),
          -- Each definition's first line, grouped once: looked up per edge, every edge rescanned
          -- all the batch's definitions.
          def_line AS (SELECT p, i, q, min(a) AS a FROM sym GROUP BY p, i, q),
          -- The caller's place, as the callers walk sorts it (migration 0240 says why).
          resolved AS (
            SELECT fc.id AS from_id, tc.id AS to_id, x.fs, x.q, x.n, x.k, pp.slug, pg.source_id, x.o,
              coalesce(dl.a, fc.start_line) AS line
            FROM x JOIN pg ON pg.page_id = x.p JOIN pages pp ON pp.id = x.p
            JOIN chunks fc ON fc.page_id = x.p AND fc.chunk_index = x.f
            LEFT JOIN chunks tc ON x.t IS NOT NULL AND tc.page_id = x.p AND tc.chunk_index = x.t
            LEFT JOIN def_line dl ON dl.p = x.p AND dl.i = x.f AND dl.q = x.fs),
          c AS (INSERT INTO code_edges_chunk (from_chunk_id, to_chunk_id, to_symbol, edge_type, source_id, from_symbol, from_slug, from_line)
                SELECT from_id, to_id, q, k, source_id, fs, slug, line FROM resolved WHERE to_id IS NOT NULL ORDER BY o ON CONFLICT DO NOTHING)
     INSERT INTO code_edges_symbol (from_chunk_id, to_symbol_qualified, to_symbol_name, edge_type, source_id, from_symbol, from_slug, from_line)
     SELECT from_id, q, n, k, source_id, fs, slug, line FROM resolved ORDER BY o ON CONFLICT DO NOTHING`,
    [
      withRows.map((p) => p.pageId),
      JSON.stringify(edges),
      JSON.stringify(symbols),
      withRows.map((p) => p.sourceId),
      theirs.map((c) => String(c.id)),
      theirs.map((c) => String(c.pageId)),
      theirs.map((c) => c.chunkIndex),
      theirs.map((c) => c.startLine),
    ],
  )
}
