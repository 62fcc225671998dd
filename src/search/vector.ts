import type { SqlExecutor } from '../db/index.js'
import { toVectorLiteral, type EmbeddingProvider } from '../embedding/index.js'
import { serializeError, type ErrorEnvelope } from '../errors/index.js'
import { baseResponse, mapRows, noEmbeddingsNotice, resolveEmbedder, type SearchDeps } from './deps.js'
import type { SearchPlan } from './options.js'
import { FILTER_SQL, RESULT_COLUMNS_SQL, planParams, sourceFactorSql, type ResultRow, withSearchTransaction } from './sql.js'
import type { SearchResponse } from './types.js'

/** Nearest chunks read per result asked for (offset included), so re-ranking has room to act. */
const VECTOR_INNER_FACTOR = 5
const VECTOR_INNER_MIN = 50

/** The inner nearest-neighbour limit: grows with offset, so deeper pages see deeper neighbours. */
export function vectorInnerLimit(plan: Pick<SearchPlan, 'offset' | 'limit'>): number {
  return Math.max(VECTOR_INNER_MIN, VECTOR_INNER_FACTOR * (plan.offset + plan.limit))
}

/**
 * Two stages. The inner one is a pure nearest-neighbour pass in cosine distance over vectors of
 * the active model (the shape the HNSW index serves); the outer one scores each candidate by its
 * cosine similarity times its page's source factor, keeps each page's best chunk and orders by
 * that score.
 */
async function vectorRows(tx: SqlExecutor, plan: SearchPlan, vectorLiteral: string, model: string): Promise<ResultRow[]> {
  const { rows } = await tx.query<ResultRow>(
    `WITH nearest AS (
       SELECT c.id AS chunk_id, c.page_id, c.embedding <=> $9::vector AS distance
       FROM content_chunks c JOIN pages p ON p.id = c.page_id
       WHERE c.embedding IS NOT NULL AND c.model = $10::text AND ${FILTER_SQL}
       ORDER BY c.embedding <=> $9::vector
       LIMIT $11
     ),
     scored AS (
       SELECT n.chunk_id, n.page_id, c.chunk_index, (1 - n.distance) * ${sourceFactorSql(plan.boosts.length)} AS score
       FROM nearest n JOIN content_chunks c ON c.id = n.chunk_id JOIN pages p ON p.id = n.page_id
     ),
     picked AS (
       SELECT DISTINCT ON (page_id) chunk_id, score FROM scored ORDER BY page_id, score DESC, chunk_index
     )
     SELECT k.score, ${RESULT_COLUMNS_SQL}
     FROM picked k JOIN content_chunks c ON c.id = k.chunk_id JOIN pages p ON p.id = c.page_id
     ORDER BY k.score DESC, p.slug, c.chunk_index
     LIMIT $12 OFFSET $13`,
    [...planParams(plan), vectorLiteral, model, vectorInnerLimit(plan), plan.limit, plan.offset],
  )
  return rows
}

/**
 * Hybrid search's vector side, per chunk: the `plan.limit` nearest chunks (the pure
 * nearest-neighbour pass the HNSW index serves) together with the given keyword candidates, each
 * scored by its exact cosine similarity times its page's source factor. A candidate without a
 * vector of `model` is left out (it has no vector evidence). With `plan.limit` 0, only the
 * candidates. Each wanted chunk is read by its key (the lateral subquery with OFFSET 0 keeps the
 * planner from joining instead): the embedded engine keeps the statistics of the brain before it
 * was embedded, took the model's chunks for a handful, and hashed all of them to join 100.
 */
export async function vectorChunkRows(tx: SqlExecutor, plan: SearchPlan, vectorLiteral: string, model: string, alsoChunkIds: readonly number[]): Promise<ResultRow[]> {
  const { rows } = await tx.query<ResultRow>(
    `WITH nearest AS (
       SELECT c.id AS chunk_id
       FROM content_chunks c JOIN pages p ON p.id = c.page_id
       WHERE c.embedding IS NOT NULL AND c.model = $10::text AND ${FILTER_SQL}
       ORDER BY c.embedding <=> $9::vector
       LIMIT $11
     ),
     wanted AS (
       SELECT chunk_id FROM nearest UNION SELECT unnest($12::bigint[]) AS chunk_id
     )
     SELECT (1 - (c.embedding <=> $9::vector)) * ${sourceFactorSql(plan.boosts.length)} AS score, ${RESULT_COLUMNS_SQL}
     FROM wanted w
       CROSS JOIN LATERAL (SELECT * FROM content_chunks c WHERE c.id = w.chunk_id OFFSET 0) c
       JOIN pages p ON p.id = c.page_id
     WHERE c.embedding IS NOT NULL AND c.model = $10::text
     ORDER BY score DESC, p.slug, c.chunk_index`,
    [...planParams(plan), vectorLiteral, model, plan.limit, alsoChunkIds.map(Number)],
  )
  return rows
}

/**
 * Up to this many vectors of the model, the nearest chunks are found by comparing every one of
 * them: exact, and within a few milliseconds of the index at this size (each vector is read from
 * TOAST, about 10 µs on PostgreSQL and 20 µs on PGLite). Past it, through the HNSW index. The
 * planner is not left to choose: it estimated `embedding IS NOT NULL AND model = $1` as two
 * independent conditions (a brain with 2 % of its 250,000 chunks embedded came out at 0.03 %),
 * and the embedded engine, without autovacuum, plans from statistics taken before anything was
 * embedded; either way it compared every vector, 40–50 ms on PostgreSQL where the index takes 4.
 */
export const EXACT_NEAREST_MAX = 500

/** How many chunks carry a vector of `model`, counted up to EXACT_NEAREST_MAX + 1 (a probe of a partial index). */
export async function embeddedChunks(tx: SqlExecutor, model: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM content_chunks WHERE model = $1 AND embedding IS NOT NULL LIMIT $2) x`, [model, EXACT_NEAREST_MAX + 1])
  return rows[0]?.n ?? 0
}

/** The search transaction of a nearest-neighbour pass over `embedded` vectors (embeddedChunks) for `depth` candidates. */
export function nearestTransaction(depth: number, embedded: number): { efSearch: number; indexOrder: boolean } {
  return { efSearch: depth, indexOrder: embedded > EXACT_NEAREST_MAX }
}

/** The query's vector as a pgvector literal, or why there is none. */
type QueryEmbedding = { literal: string; error: null } | { literal: null; error: ErrorEnvelope }

/** Never rejects: a provider failure is returned, so hybrid search can fall back to keywords. */
export async function embedQuery(embedder: EmbeddingProvider, query: string, signal?: AbortSignal): Promise<QueryEmbedding> {
  try {
    const [vector] = await embedder.embed([query], { signal, purpose: 'query' })
    return { literal: toVectorLiteral(vector!), error: null }
  } catch (err) {
    return { literal: null, error: serializeError(err) }
  }
}

export async function vectorSearchResponse(deps: SearchDeps, query: string, plan: SearchPlan): Promise<SearchResponse> {
  const embedder = await resolveEmbedder(deps)
  const response = { ...baseResponse(query, 'vector', plan), model: embedder.model }
  const embedded = await embeddedChunks(deps.db, embedder.model)
  if (embedded === 0) return { ...response, notice: noEmbeddingsNotice(embedder.model) }
  const [vector] = await embedder.embed([query], { signal: deps.signal, purpose: 'query' })
  const literal = toVectorLiteral(vector!)
  const rows = await withSearchTransaction(deps.db, (tx) => vectorRows(tx, plan, literal, embedder.model), nearestTransaction(vectorInnerLimit(plan), embedded))
  return { ...response, ran: ['vector'], results: mapRows(rows, query, plan, deps) }
}
