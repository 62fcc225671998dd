import type { ChunkDraft } from '../chunking/index.js'
import type { SqlExecutor } from '../db/index.js'
import type { StoredChunk } from './types.js'

/** A chunk to store; `embedding` is set only when the caller already has a vector for it. */
export interface ChunkWrite extends ChunkDraft {
  embedding?: string | null
  model?: string | null
}

interface ChunkUpsertResult {
  written: number
  /** Chunks whose text changed (or are new) and now need an embedding. */
  needEmbedding: number
  removed: number
}

/** A chunk's columns as the JSON rows the chunk statements read. */
function chunkRow(c: ChunkDraft) {
  return {
    chunk_index: c.chunkIndex,
    chunk_text: c.text,
    chunk_source: c.source,
    token_count: c.tokenCount,
    language: c.language,
    symbol_name: c.symbolName,
    symbol_type: c.symbolType,
    start_line: c.startLine,
    end_line: c.endLine,
    parent_symbol_path: c.parentSymbolPath,
    doc_comment: c.docComment,
    symbol_name_qualified: c.symbolNameQualified,
  }
}

/**
 * Reconciles a page's chunks in two statements. A chunk whose (chunk_index, chunk_text) is
 * unchanged keeps its stored embedding; a chunk whose text changed without a new embedding has
 * `embedding` and `embedded_at` cleared together. Rows past the new chunk count are removed.
 */
export async function upsertChunks(db: SqlExecutor, pageId: number, chunks: readonly ChunkWrite[]): Promise<ChunkUpsertResult> {
  const payload = chunks.map((c) => ({ ...chunkRow(c), embedding: c.embedding ?? null, model: c.embedding ? (c.model ?? null) : null }))
  let written = 0
  let needEmbedding = 0
  if (payload.length > 0) {
    const { rows } = await db.query<{ needs_embedding: boolean }>(
      `INSERT INTO content_chunks AS c (page_id, chunk_index, chunk_text, chunk_source, token_count, language, symbol_name,
          symbol_type, start_line, end_line, parent_symbol_path, doc_comment, symbol_name_qualified, embedding, embedded_at, model)
       SELECT $1, x.chunk_index, x.chunk_text, x.chunk_source, x.token_count, x.language, x.symbol_name, x.symbol_type,
          x.start_line, x.end_line, x.parent_symbol_path, x.doc_comment, x.symbol_name_qualified,
          x.embedding::vector, CASE WHEN x.embedding IS NULL THEN NULL ELSE now() END, x.model
       FROM jsonb_to_recordset($2::jsonb) AS x(chunk_index int, chunk_text text, chunk_source text, token_count int,
          language text, symbol_name text, symbol_type text, start_line int, end_line int, parent_symbol_path text[],
          doc_comment text, symbol_name_qualified text, embedding text, model text)
       ON CONFLICT (page_id, chunk_index) DO UPDATE SET
         chunk_text = EXCLUDED.chunk_text,
         chunk_source = EXCLUDED.chunk_source,
         token_count = EXCLUDED.token_count,
         language = EXCLUDED.language,
         symbol_name = EXCLUDED.symbol_name,
         symbol_type = EXCLUDED.symbol_type,
         start_line = EXCLUDED.start_line,
         end_line = EXCLUDED.end_line,
         parent_symbol_path = EXCLUDED.parent_symbol_path,
         doc_comment = EXCLUDED.doc_comment,
         symbol_name_qualified = EXCLUDED.symbol_name_qualified,
         embedding = CASE WHEN EXCLUDED.embedding IS NOT NULL THEN EXCLUDED.embedding
                          WHEN c.chunk_text = EXCLUDED.chunk_text THEN c.embedding ELSE NULL END,
         embedded_at = CASE WHEN EXCLUDED.embedding IS NOT NULL THEN EXCLUDED.embedded_at
                            WHEN c.chunk_text = EXCLUDED.chunk_text THEN c.embedded_at ELSE NULL END,
         model = CASE WHEN EXCLUDED.embedding IS NOT NULL THEN EXCLUDED.model
                      WHEN c.chunk_text = EXCLUDED.chunk_text THEN c.model ELSE NULL END
       WHERE c.chunk_text IS DISTINCT FROM EXCLUDED.chunk_text
          OR EXCLUDED.embedding IS NOT NULL
          OR (c.chunk_source, c.token_count, c.language, c.symbol_name, c.symbol_type, c.start_line, c.end_line,
              c.parent_symbol_path, c.doc_comment, c.symbol_name_qualified)
             IS DISTINCT FROM
             (EXCLUDED.chunk_source, EXCLUDED.token_count, EXCLUDED.language, EXCLUDED.symbol_name, EXCLUDED.symbol_type,
              EXCLUDED.start_line, EXCLUDED.end_line, EXCLUDED.parent_symbol_path, EXCLUDED.doc_comment, EXCLUDED.symbol_name_qualified)
       RETURNING (embedding IS NULL) AS needs_embedding`,
      [pageId, JSON.stringify(payload)],
    )
    written = rows.length
    needEmbedding = rows.filter((r) => r.needs_embedding).length
  }
  const removed = await db.query('DELETE FROM content_chunks WHERE page_id = $1 AND chunk_index >= $2', [pageId, chunks.length])
  return { written, needEmbedding, removed: removed.rowCount }
}

/** A chunk row as written: what the code graph of its page joins on. */
interface WrittenChunk {
  id: number
  pageId: number
  chunkIndex: number
  startLine: number | null
}

/**
 * The chunks of pages that had none before (a bulk import), in one statement, in the order given.
 * A page's `vectors` (search-vectors.ts), one per chunk, are stored as insertNewPages stores a
 * page's own. Returns the rows written, so the statements after it need not look them up in a
 * table that grows with the brain.
 */
export async function insertChunksOfNewPages(
  db: SqlExecutor,
  pages: ReadonlyArray<{ pageId: number; chunks: readonly ChunkDraft[]; vectors?: ReadonlyArray<{ vector: string; length: number }> }>,
  config?: string,
): Promise<WrittenChunk[]> {
  const payload = pages
    .flatMap((p) => p.chunks.map((c, i) => ({ ...chunkRow(c), page_id: p.pageId, search_vector: p.vectors?.[i]?.vector ?? null, search_length: p.vectors?.[i]?.length ?? null })))
    .map((row, ord) => ({ ...row, ord }))
  if (payload.length === 0) return []
  const { rows } = await db.query<{ id: number; page_id: number; chunk_index: number; start_line: number | null }>(
    `INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source, token_count, language, symbol_name,
        symbol_type, start_line, end_line, parent_symbol_path, doc_comment, symbol_name_qualified, search_vector, search_length)
     SELECT x.page_id, x.chunk_index, x.chunk_text, x.chunk_source, x.token_count, x.language, x.symbol_name, x.symbol_type,
        x.start_line, x.end_line, x.parent_symbol_path, x.doc_comment, x.symbol_name_qualified,
        CASE WHEN g.same THEN x.search_vector::tsvector END, CASE WHEN g.same THEN x.search_length END
     FROM jsonb_to_recordset($1::jsonb) AS x(page_id bigint, chunk_index int, chunk_text text, chunk_source text, token_count int,
        language text, symbol_name text, symbol_type text, start_line int, end_line int, parent_symbol_path text[],
        doc_comment text, symbol_name_qualified text, ord bigint, search_vector text, search_length int)
     CROSS JOIN (SELECT $2::regconfig = brain_search_language() AS same) AS g
     ORDER BY x.ord
     RETURNING id, page_id, chunk_index, start_line`,
    [JSON.stringify(payload), config ?? null],
  )
  return rows.map((r) => ({ id: Number(r.id), pageId: Number(r.page_id), chunkIndex: r.chunk_index, startLine: r.start_line }))
}

interface ChunkRow {
  id: number
  chunk_index: number
  chunk_text: string
  chunk_source: string
  token_count: number
  embedded: boolean
  embedded_at: Date | null
  model: string | null
  language: string | null
  symbol_name: string | null
  symbol_type: string | null
  start_line: number | null
  end_line: number | null
  parent_symbol_path: string[] | null
  doc_comment: string | null
  symbol_name_qualified: string | null
}

/** A page's chunks in order, without reading the stored vectors. */
export async function listChunks(db: SqlExecutor, pageId: number): Promise<StoredChunk[]> {
  const { rows } = await db.query<ChunkRow>(
    `SELECT id, chunk_index, chunk_text, chunk_source, token_count, embedding IS NOT NULL AS embedded, embedded_at, model,
            language, symbol_name, symbol_type, start_line, end_line, parent_symbol_path, doc_comment, symbol_name_qualified
     FROM content_chunks WHERE page_id = $1 ORDER BY chunk_index`,
    [pageId],
  )
  return rows.map((r) => ({
    id: r.id,
    chunkIndex: r.chunk_index,
    chunkText: r.chunk_text,
    chunkSource: r.chunk_source,
    tokenCount: r.token_count,
    embedded: r.embedded,
    embeddedAt: r.embedded_at,
    model: r.model,
    language: r.language,
    symbolName: r.symbol_name,
    symbolType: r.symbol_type,
    startLine: r.start_line,
    endLine: r.end_line,
    parentSymbolPath: r.parent_symbol_path,
    docComment: r.doc_comment,
    symbolNameQualified: r.symbol_name_qualified,
  }))
}
