import type { SqlExecutor } from '../../db/index.js'
import type { EmbeddingProvider } from '../index.js'
import type { ErrorEnvelope } from '../../errors/index.js'
import { embedAndStore, type PendingChunk } from './embed-chunks.js'

/** `stale`: chunks without an embedding. `all`: every chunk of every page, re-embedded page by page. */
export type EmbedMode = 'stale' | 'all'

/** One listing of stale chunk ids reads at most this many rows. */
export const STALE_LIST_LIMIT = 100_000
/** Chunks per provider call and per UPDATE. */
const EMBED_BATCH_CHUNKS = 200
/** Pages per `--all` step; their chunks are embedded together. */
const EMBED_ALL_PAGES_PER_STEP = 50
/** A provider that fails this many batches in a row is given up on; what is left stays stale. */
const MAX_CONSECUTIVE_FAILURES = 3

export interface EmbedProgress {
  done: number
  total: number
  message: string
}

export interface EmbedRunOptions {
  signal?: AbortSignal
  onProgress?: (progress: EmbedProgress) => void
  /** Chunks per batch (tests use small ones). */
  batchSize?: number
  /** Stale ids per listing (tests use small ones to exercise paging). */
  listLimit?: number
}

export interface EmbedRunResult {
  mode: EmbedMode
  model: string
  /** Chunks this run set out to embed. */
  total: number
  embedded: number
  /** Chunks whose provider call failed; they keep their previous embedding (or none). */
  failed: number
  /** Chunks never attempted because the provider kept failing. */
  remaining: number
  error: ErrorEnvelope | null
  duration_ms: number
}

/** Tallies batches and stops a run once the provider has failed MAX_CONSECUTIVE_FAILURES times in a row. */
class Tally {
  embedded = 0
  failed = 0
  error: ErrorEnvelope | null = null
  private streak = 0

  constructor(
    private readonly total: number,
    private readonly options: EmbedRunOptions,
  ) {}

  get done(): number {
    return this.embedded + this.failed
  }

  get givenUp(): boolean {
    return this.streak >= MAX_CONSECUTIVE_FAILURES
  }

  add(batch: { embedded: number; failed: number; error: ErrorEnvelope | null }): void {
    this.embedded += batch.embedded
    this.failed += batch.failed
    if (batch.error) {
      this.error = batch.error
      this.streak++
    } else if (batch.embedded > 0) {
      this.streak = 0
    }
    this.options.onProgress?.({ done: this.done, total: this.total, message: `embedded ${this.embedded} of ${this.total} chunks${this.failed ? `, ${this.failed} failed` : ''}` })
  }

  result(mode: EmbedMode, model: string, started: number): EmbedRunResult {
    return {
      mode,
      model,
      total: this.total,
      embedded: this.embedded,
      failed: this.failed,
      remaining: Math.max(0, this.total - this.done),
      error: this.error,
      duration_ms: Date.now() - started,
    }
  }
}

/** How many chunks have no embedding; a cheap count over the partial stale index. */
export async function countStaleChunks(db: SqlExecutor): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_chunks WHERE embedding IS NULL')
  return rows[0]?.n ?? 0
}

/** Ids of stale chunks after `afterId`, in id order; never reads a stored vector. */
export async function listStaleChunkIds(db: SqlExecutor, afterId: number, limit = STALE_LIST_LIMIT): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM content_chunks WHERE embedding IS NULL AND id > $1 ORDER BY id LIMIT $2', [afterId, Math.min(limit, STALE_LIST_LIMIT)])
  return rows.map((r) => Number(r.id))
}

async function staleTexts(db: SqlExecutor, ids: readonly number[]): Promise<PendingChunk[]> {
  const { rows } = await db.query<{ id: number; chunk_text: string }>('SELECT id, chunk_text FROM content_chunks WHERE id = ANY($1::bigint[]) AND embedding IS NULL ORDER BY id', [ids])
  return rows.map((r) => ({ id: Number(r.id), chunkText: r.chunk_text }))
}

/**
 * `embed --stale`: counts chunks without an embedding and returns at once when there are none;
 * otherwise lists their ids (at most STALE_LIST_LIMIT per listing, keyset-paged by id) and embeds
 * them in batches. Only NULL embeddings are written, so the embedded chunks of a partly stale
 * page are left exactly as they are.
 */
export async function embedStale(db: SqlExecutor, provider: EmbeddingProvider, options: EmbedRunOptions = {}): Promise<EmbedRunResult> {
  const started = Date.now()
  const total = await countStaleChunks(db)
  const tally = new Tally(total, options)
  if (total === 0) return tally.result('stale', provider.model, started)
  const batchSize = options.batchSize ?? EMBED_BATCH_CHUNKS
  let afterId = 0
  for (;;) {
    const ids = await listStaleChunkIds(db, afterId, options.listLimit)
    for (let i = 0; i < ids.length && !tally.givenUp; i += batchSize) {
      options.signal?.throwIfAborted()
      const chunks = await staleTexts(db, ids.slice(i, i + batchSize))
      tally.add(await embedAndStore(db, provider, chunks, options.signal))
    }
    if (tally.givenUp || ids.length < (options.listLimit ?? STALE_LIST_LIMIT)) break
    afterId = ids[ids.length - 1]!
  }
  return tally.result('stale', provider.model, started)
}

/**
 * `embed --all`: every chunk of every page, page by page, with the active provider; each page's
 * chunks are embedded together. A failed batch keeps the vectors those chunks had.
 */
export async function embedAll(db: SqlExecutor, provider: EmbeddingProvider, options: EmbedRunOptions = {}): Promise<EmbedRunResult> {
  const started = Date.now()
  const { rows: counted } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_chunks')
  const tally = new Tally(counted[0]?.n ?? 0, options)
  const batchSize = options.batchSize ?? EMBED_BATCH_CHUNKS
  let afterPage = 0
  while (!tally.givenUp) {
    const { rows: pages } = await db.query<{ id: number }>('SELECT id FROM pages WHERE id > $1 ORDER BY id LIMIT $2', [afterPage, EMBED_ALL_PAGES_PER_STEP])
    if (pages.length === 0) break
    afterPage = Number(pages[pages.length - 1]!.id)
    const { rows } = await db.query<{ id: number; chunk_text: string }>('SELECT id, chunk_text FROM content_chunks WHERE page_id = ANY($1::bigint[]) ORDER BY page_id, chunk_index', [
      pages.map((p) => Number(p.id)),
    ])
    for (let i = 0; i < rows.length && !tally.givenUp; i += batchSize) {
      options.signal?.throwIfAborted()
      const chunks = rows.slice(i, i + batchSize).map((r) => ({ id: Number(r.id), chunkText: r.chunk_text }))
      tally.add(await embedAndStore(db, provider, chunks, options.signal))
    }
  }
  return tally.result('all', provider.model, started)
}

export function runEmbed(db: SqlExecutor, provider: EmbeddingProvider, mode: EmbedMode, options: EmbedRunOptions = {}): Promise<EmbedRunResult> {
  return mode === 'stale' ? embedStale(db, provider, options) : embedAll(db, provider, options)
}
