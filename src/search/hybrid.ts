import type { EmbeddingProvider } from '../embedding/index.js'
import { serializeError, type ErrorEnvelope } from '../errors/index.js'
import { baseResponse, mapRows, noEmbeddingsNotice, resolveEmbedder, type SearchDeps } from './deps.js'
import type { SearchPlan } from './options.js'
import { keywordChunkRows, keywordPageRows } from './result-cache.js'
import { withSearchTransaction, type ResultRow } from './sql.js'
import type { KeywordOnlyReason, SearchResponse } from './types.js'
import { embeddedChunks, embedQuery, nearestTransaction, vectorChunkRows } from './vector.js'

/** Chunks each side contributes per result asked for (offset included), and at least. */
const HYBRID_CANDIDATE_FACTOR = 5
const HYBRID_CANDIDATE_MIN = 50

export function hybridCandidates(plan: Pick<SearchPlan, 'offset' | 'limit'>): number {
  return Math.max(HYBRID_CANDIDATE_MIN, HYBRID_CANDIDATE_FACTOR * (plan.offset + plan.limit))
}

/**
 * Weight of the keyword side in the per-chunk fusion (fuseChunks, below), chosen on the tuning
 * halves of every set in bench/retrieval (bench/retrieval/vector-windows.ts; see
 * src/search/README.md): BM25 mapped onto [0, 1] within the keyword list weighs 0.3, the cosine
 * similarity of the same chunk (times the source factor) 0.7.
 */
export const HYBRID_KEYWORD_WEIGHT = 0.3

/**
 * Keyword (BM25, any word) and vector candidates as chunks, fused per chunk (fuseChunks): the
 * keyword list's top chunks and the nearest chunks, each scored by its normalised BM25 and by
 * its own cosine similarity, then each page stands for its best chunk. Cosine similarities of a
 * small local model sit in a narrow band, so a chunk holding the query's words still moves up
 * by up to the keyword weight, and a chunk that shares no word with the question can still rise
 * on meaning alone. The query is embedded while the keyword side runs, outside any
 * transaction, so a slow provider never holds a database connection. Without vectors of the
 * active model, or when the query cannot be embedded, the response says it ran keyword-only
 * (`keyword_only` and `notice`) and carries the keyword search's results.
 */
export async function hybridSearch(deps: SearchDeps, query: string, plan: SearchPlan): Promise<SearchResponse> {
  const response = baseResponse(query, 'hybrid', plan)
  const keywordOnly = async (reason: KeywordOnlyReason, notice: string): Promise<SearchResponse> => ({
    ...response,
    ran: ['keyword'],
    match: 'any',
    keyword_only: reason,
    notice,
    results: mapRows(await keywordPageRows(deps.db, plan, query), query, plan, deps),
  })
  let embedder: EmbeddingProvider
  try {
    embedder = await resolveEmbedder(deps)
  } catch (err) {
    // A model folder that went missing must not take keyword search down with it.
    const error = serializeError(err)
    return keywordOnly('embedding_failed', `Ran keyword-only: the embedding model is not usable (${error.code}: ${error.message})`)
  }
  const embedded = await embeddedChunks(deps.db, embedder.model)
  if (embedded === 0) return keywordOnly('no_embeddings', `Ran keyword-only. ${noEmbeddingsNotice(embedder.model)}`)
  const depth = hybridCandidates(plan)
  const nearestOptions = nearestTransaction(depth, embedded)
  const legPlan: SearchPlan = { ...plan, offset: 0, limit: depth }
  const embedding = embedQuery(embedder, query, deps.signal)
  const notEmbedded = (error: ErrorEnvelope): Promise<SearchResponse> => keywordOnly('embedding_failed', `Ran keyword-only: the query could not be embedded (${error.code}: ${error.message})`)
  const chunkIds = (rows: readonly ResultRow[]): number[] => rows.map((row) => Number(row.chunk_id))
  const fusedResponse = (keywordChunks: readonly ResultRow[], vectorChunks: readonly ResultRow[]): SearchResponse => ({
    ...response,
    ran: ['keyword', 'vector'],
    match: 'any',
    model: embedder.model,
    results: mapRows(fuseChunks(keywordChunks, vectorChunks, HYBRID_KEYWORD_WEIGHT).slice(plan.offset, plan.offset + plan.limit), query, plan, deps),
  })
  if (!deps.db.capabilities.parallelStatements) {
    // One connection: the passes take turns, so one statement scores the nearest chunks and the
    // keyword candidates together.
    const keywordChunks = await keywordChunkRows(deps.db, legPlan, query)
    const { literal, error } = await embedding
    if (literal === null) return notEmbedded(error)
    const vectorChunks = await withSearchTransaction(deps.db, (tx) => vectorChunkRows(tx, legPlan, literal, embedder.model, chunkIds(keywordChunks)), nearestOptions)
    return fusedResponse(keywordChunks, vectorChunks)
  }
  // The nearest chunks do not depend on the keyword side, so they are found while it runs. That
  // pass never rejects (its error is kept for below), and the keyword side waits for it either
  // way, so no statement outlives this call.
  const nearest = embedding
    .then(({ literal }) => (literal === null ? [] : withSearchTransaction(deps.db, (tx) => vectorChunkRows(tx, legPlan, literal, embedder.model, []), nearestOptions)))
    .then(
      (rows) => ({ rows, error: null }),
      (error: unknown) => ({ rows: [], error }),
    )
  const keywordChunks = await keywordChunkRows(deps.db, legPlan, query).finally(() => nearest)
  const { literal, error } = await embedding
  if (literal === null) return notEmbedded(error)
  const near = await nearest
  if (near.error !== null) throw near.error
  // The vector side carries the cosine of every keyword candidate too.
  const seen = new Set(chunkIds(near.rows))
  const missing = chunkIds(keywordChunks).filter((id) => !seen.has(id))
  // No nearest chunks this time (limit 0): only the cosines of the given ones.
  const cosines = missing.length === 0 ? [] : await withSearchTransaction(deps.db, (tx) => vectorChunkRows(tx, { ...legPlan, limit: 0 }, literal, embedder.model, missing), nearestOptions)
  return fusedResponse(keywordChunks, [...near.rows, ...cosines])
}

/** A chunk as either side of hybrid search ranks it (score already times the source factor). */
export interface ChunkCandidate {
  score: number
  slug: string
  source_id: string
  chunk_id: number
  chunk_index: number
}

/** A page's best fused chunk: the row as a side returned it, with the fused score. */
type FusedChunk<T extends ChunkCandidate> = T & { keyword: number; vector: number }

const pageKeyOf = (row: ChunkCandidate): string => `${row.source_id}\u0000${row.slug}`

function byScoreThenPosition(a: { score: number; slug: string; source_id: string; chunk_index: number }, b: typeof a): number {
  return b.score - a.score || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) || (a.source_id < b.source_id ? -1 : a.source_id > b.source_id ? 1 : 0) || a.chunk_index - b.chunk_index
}

/**
 * Fuses per chunk, then keeps each page's best chunk:
 *
 *   score(c) = w · (kw(c) − kw_min) / (kw_max − kw_min) + (1 − w) · vec(c)
 *
 * kw(c) is the chunk's BM25 score in the keyword list (min and max over that list; a list of one
 * scores 1; 0 for a chunk the list does not hold), vec(c) the cosine similarity of the same chunk
 * (0 when it has no vector of the active model). Both lists hold chunks, not pages, and the
 * vector side carries the cosine of every keyword candidate, so the two kinds of evidence are
 * added up where they meet: a chunk that matches the words and the meaning beats a page whose
 * words sit in one chunk (a code fence, say) and whose meaning sits in another. Ties order by
 * slug, source and chunk index, so both engines agree.
 */
export function fuseChunks<T extends ChunkCandidate>(keyword: readonly T[], vector: readonly T[], keywordWeight: number): Array<FusedChunk<T>> {
  const scores = keyword.map((r) => Number(r.score))
  const max = Math.max(...scores)
  const min = Math.min(...scores)
  const span = max - min
  const chunks = new Map<number, { row: T; keyword: number; vector: number }>()
  keyword.forEach((row, i) => {
    if (!chunks.has(Number(row.chunk_id))) chunks.set(Number(row.chunk_id), { row, keyword: span > 0 ? (scores[i]! - min) / span : 1, vector: 0 })
  })
  for (const row of vector) {
    const entry = chunks.get(Number(row.chunk_id)) ?? { row, keyword: 0, vector: 0 }
    entry.vector = Number(row.score)
    chunks.set(Number(row.chunk_id), entry)
  }
  const best = new Map<string, FusedChunk<T>>()
  for (const { row, keyword: kw, vector: vec } of chunks.values()) {
    const fused: FusedChunk<T> = { ...row, score: keywordWeight * kw + (1 - keywordWeight) * vec, keyword: kw, vector: vec }
    const key = pageKeyOf(row)
    const held = best.get(key)
    if (!held || byScoreThenPosition(fused, held) < 0) best.set(key, fused)
  }
  return [...best.values()].sort(byScoreThenPosition)
}
