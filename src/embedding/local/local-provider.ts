import { throwIfAborted } from './abort.js'
import { keepingProcessAlive } from './keep-alive.js'
import { EMBEDDING_INPUT_TOKEN_CAP } from '../constants.js'
import { LOCAL_MODEL_ID } from './local-model.js'
import { stockBackend, type LocalBackend } from './local-backends.js'
import { localBackend, nativeRequested } from './local-runtime.js'
import { resolveLocalBatchSize } from '../settings.js'
import type { EmbeddingProvider, EmbeddingSettings, EmbedOptions } from '../types.js'
import { assertUsableVector, nonEmptyInput, padToDimensions } from '../store/vectors.js'

/**
 * Inputs are cut to the OpenAI cap's length/4 equivalent in characters: the same budget as the
 * other provider, and it bounds the tokenizer's work on a pathological chunk.
 */
const LOCAL_MAX_INPUT_CHARS = EMBEDDING_INPUT_TOKEN_CAP * 4

/**
 * A search query (one or two inputs) is embedded in-process: on the native backend it runs at once
 * beside any bulk batches; otherwise it takes the stock path, so that it never waits behind an
 * import's batches in the workers.
 */
const IN_PROCESS_MAX_INPUTS = 2

/**
 * Offline embeddings from the model shipped on npm; 512 dimensions zero-padded to 1536. Providers
 * are cheap: they share the process-wide runtime (worker threads, or the in-process fallback).
 */
export function createLocalProvider(settings: EmbeddingSettings): EmbeddingProvider {
  const batchSize = resolveLocalBatchSize(settings)
  return {
    name: 'local',
    model: LOCAL_MODEL_ID,
    async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
      throwIfAborted(options.signal)
      if (texts.length === 0) return []
      const native = await keepingProcessAlive(async () => (await queryOrBulkBackend(texts.length)).embed(texts.map(prepareInput), batchSize, options.signal))
      return native.map((vector, index) => {
        const padded = padToDimensions(vector)
        assertUsableVector(padded, index)
        return padded
      })
    },
  }
}

/** Queries go to the native backend when it runs (in-process already); never to the worker threads. */
async function queryOrBulkBackend(inputCount: number): Promise<LocalBackend> {
  if (inputCount > IN_PROCESS_MAX_INPUTS) return localBackend()
  if (!nativeRequested()) return stockBackend
  const backend = await localBackend()
  return backend.kind === 'native' ? backend : stockBackend
}

function prepareInput(text: string): string {
  const input = nonEmptyInput(text)
  if (input.length <= LOCAL_MAX_INPUT_CHARS) return input
  const last = input.charCodeAt(LOCAL_MAX_INPUT_CHARS - 1)
  // Keep surrogate pairs whole.
  const end = last >= 0xd800 && last <= 0xdbff ? LOCAL_MAX_INPUT_CHARS - 1 : LOCAL_MAX_INPUT_CHARS
  return input.slice(0, end)
}
