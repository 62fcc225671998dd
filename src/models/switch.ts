import { createHash } from 'node:crypto'
import { deleteConfigValue, readConfigValue, writeConfigValue } from '../config/index.js'
import type { Database, SqlExecutor } from '../db/index.js'
import { toVectorLiteral, type EmbeddingProvider } from '../embedding/index.js'
import { embedStale } from '../embedding/store/index.js'
import { ConflictError } from '../errors/index.js'
import { ACTIVE_MODEL_KEY, BUILTIN_MODEL_ID } from './provider.js'

/** The model a brain is switching to, while its vectors are computed. */
export const NEXT_MODEL_KEY = 'embedding.next_model'

/** Chunks per model call and insert. */
const SWITCH_BATCH = 32

/** Passes over the chunks before the swap; each catches chunks written during the one before. */
const MAX_PASSES = 5

export interface SwitchProgress {
  done: number
  total: number
  message: string
}

export interface SwitchResult {
  from: string
  to: string
  /** Chunks embedded with the new model before the swap. */
  embedded: number
  /** Chunks written after the last pass, embedded after the swap. */
  embedded_after: number
  total: number
  duration_ms: number
}

export async function activeModelId(db: SqlExecutor): Promise<string> {
  return (await readConfigValue(db, ACTIVE_MODEL_KEY)) ?? BUILTIN_MODEL_ID
}

export async function nextModelId(db: SqlExecutor): Promise<string | null> {
  return readConfigValue(db, NEXT_MODEL_KEY)
}

/** Marks `to` as the model being switched to; a newer switch makes an older job stop. */
export async function beginModelSwitch(db: SqlExecutor, to: string): Promise<void> {
  await writeConfigValue(db, NEXT_MODEL_KEY, to)
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex')
}

/**
 * Embeds every chunk with `provider` beside the vectors search uses now, then swaps them in one
 * transaction and makes `to` the active model. Until the swap, search keeps using the old model
 * and loses nothing; a job stopped half-way resumes where it was, because the new vectors stay.
 */
export async function runModelSwitch(
  db: Database,
  to: string,
  provider: EmbeddingProvider,
  options: { signal?: AbortSignal; onProgress?: (p: SwitchProgress) => void; now?: () => number } = {},
): Promise<SwitchResult> {
  const now = options.now ?? Date.now
  const started = now()
  const from = await activeModelId(db)
  const stillWanted = async (): Promise<void> => {
    const wanted = await nextModelId(db)
    if (wanted !== to) throw new ConflictError('model_switch_superseded', wanted === null ? `The switch to ${to} was cancelled.` : `The switch to ${to} was replaced by a switch to ${wanted}.`)
  }
  if (from === to && (await nextModelId(db)) === null) {
    // A second job for a switch another one finished.
    return { from, to, embedded: 0, embedded_after: 0, total: 0, duration_ms: now() - started }
  }
  await stillWanted()
  const total = await countChunks(db)
  let embedded = 0
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let after = 0
    let found = 0
    for (;;) {
      options.signal?.throwIfAborted()
      await stillWanted()
      const batch = await missingChunks(db, provider.model, after)
      if (batch.length === 0) break
      after = batch[batch.length - 1]!.id
      const vectors = await provider.embed(
        batch.map((c) => c.text),
        { signal: options.signal, purpose: 'passage' },
      )
      await storeNext(db, provider.model, batch, vectors)
      found += batch.length
      embedded += batch.length
      options.onProgress?.(progress(embedded, total, started, now()))
    }
    if (found === 0) break
  }
  options.signal?.throwIfAborted()
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ value: string }>('SELECT value FROM config WHERE key = $1 FOR UPDATE', [NEXT_MODEL_KEY])
    if (rows[0]?.value !== to) throw new ConflictError('model_switch_superseded', `The switch to ${to} was replaced before it finished.`)
    await tx.query(
      `UPDATE content_chunks c SET embedding = n.embedding, model = n.model, embedded_at = now()
       FROM chunk_embeddings_next n WHERE n.chunk_id = c.id AND n.model = $1 AND n.text_md5 = md5(c.chunk_text)`,
      [provider.model],
    )
    // Chunks written since the last pass carry the old model's vectors: stale for the new one.
    await tx.query('UPDATE content_chunks SET embedding = NULL, embedded_at = NULL, model = NULL WHERE embedding IS NOT NULL AND model IS DISTINCT FROM $1', [provider.model])
    await tx.query('DELETE FROM chunk_embeddings_next')
    if (to === BUILTIN_MODEL_ID) await deleteConfigValue(tx, ACTIVE_MODEL_KEY)
    else await writeConfigValue(tx, ACTIVE_MODEL_KEY, to)
    await deleteConfigValue(tx, NEXT_MODEL_KEY)
  })
  const after = await embedStale(db, provider, { signal: options.signal })
  return { from, to, embedded, embedded_after: after.embedded, total, duration_ms: now() - started }
}

/** Drops a switch that has not finished: its vectors go, the active model stays. */
export async function cancelModelSwitch(db: Database): Promise<string | null> {
  const next = await nextModelId(db)
  await db.transaction(async (tx) => {
    await deleteConfigValue(tx, NEXT_MODEL_KEY)
    await tx.query('DELETE FROM chunk_embeddings_next')
  })
  return next
}

async function countChunks(db: SqlExecutor): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_chunks')
  return Number(rows[0]?.n ?? 0)
}

async function missingChunks(db: SqlExecutor, model: string, after: number): Promise<Array<{ id: number; text: string }>> {
  const { rows } = await db.query<{ id: string | number; chunk_text: string }>(
    `SELECT c.id, c.chunk_text FROM content_chunks c
     WHERE c.id > $1 AND NOT EXISTS (
       SELECT 1 FROM chunk_embeddings_next n WHERE n.chunk_id = c.id AND n.model = $2 AND n.text_md5 = md5(c.chunk_text))
     ORDER BY c.id LIMIT $3`,
    [after, model, SWITCH_BATCH],
  )
  return rows.map((r) => ({ id: Number(r.id), text: r.chunk_text }))
}

async function storeNext(db: SqlExecutor, model: string, chunks: ReadonlyArray<{ id: number; text: string }>, vectors: readonly number[][]): Promise<void> {
  const payload = chunks.map((c, i) => ({ chunk_id: c.id, text_md5: md5(c.text), embedding: toVectorLiteral(vectors[i]!) }))
  await db.query(
    `INSERT INTO chunk_embeddings_next (chunk_id, model, text_md5, embedding)
     SELECT x.chunk_id, $2, x.text_md5, x.embedding::vector
     FROM jsonb_to_recordset($1::jsonb) AS x(chunk_id bigint, text_md5 text, embedding text)
     WHERE EXISTS (SELECT 1 FROM content_chunks c WHERE c.id = x.chunk_id)
     ON CONFLICT (chunk_id) DO UPDATE SET model = EXCLUDED.model, text_md5 = EXCLUDED.text_md5, embedding = EXCLUDED.embedding`,
    [JSON.stringify(payload), model],
  )
}

function progress(done: number, total: number, started: number, now: number): SwitchProgress {
  const elapsed = now - started
  const left = Math.max(0, total - done)
  const eta = done > 0 ? Math.round(((elapsed / done) * left) / 1000) : null
  return { done, total: Math.max(total, done), message: eta === null ? 'embedding with the new model' : `about ${formatSeconds(eta)} left` }
}

function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${seconds} s`
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}
