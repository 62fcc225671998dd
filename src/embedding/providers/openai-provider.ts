import pLimit from 'p-limit'
import type { OpenAI } from 'openai'
import { ProviderError } from '../../errors/index.js'
import { abortedError, throwIfAborted } from '../local/abort.js'
import { planBatches } from './batching.js'
import { EMBEDDING_DIMENSIONS, OPENAI_MAX_TOKENS_PER_REQUEST, OPENAI_REQUEST_CONCURRENCY } from '../constants.js'
import { toProviderError, type OpenAIModule, type RequestContext } from './openai-errors.js'
import { vectorsFromResponse } from './openai-response.js'
import { resolveOpenAIConfig, type OpenAIConfig } from '../settings.js'
import { TokenCounter } from './tokenizer.js'
import type { EmbeddingProvider, EmbeddingSettings, EmbedOptions } from '../types.js'
import { nonEmptyInput } from '../store/vectors.js'

interface LoadedClient {
  openai: OpenAIModule
  client: OpenAI
}

/** Embeddings through the openai client against OpenAI or any OpenAI-compatible server. */
export function createOpenAIProvider(settings: EmbeddingSettings, tokens: TokenCounter): EmbeddingProvider {
  const config = resolveOpenAIConfig(settings)
  let loading: Promise<LoadedClient> | undefined
  // The openai package is only imported when something is embedded, so that commands which
  // merely construct a provider stay fast.
  const loadClient = (): Promise<LoadedClient> => {
    loading ??= createClient(config).catch((err: unknown) => {
      loading = undefined
      throw err
    })
    return loading
  }

  return {
    name: 'openai',
    model: config.model,
    async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
      throwIfAborted(options.signal)
      if (texts.length === 0) return []
      const inputs = texts.map((text) => tokens.capWithCount(nonEmptyInput(text)))
      const batches = planBatches(
        inputs.length,
        { maxInputs: config.batchSize, maxCost: OPENAI_MAX_TOKENS_PER_REQUEST },
        inputs.map((input) => input.tokens),
      )
      const loaded = await loadClient()
      const context: RequestContext = { baseURL: config.baseURL, model: config.model, timeoutMs: config.timeoutMs, signal: options.signal }
      const results = await runBatches(batches, options.signal, (signal, [start, end]) =>
        requestBatch(
          loaded,
          config,
          inputs.slice(start, end).map((input) => input.text),
          signal,
          context,
        ),
      )
      return results.flat()
    },
  }
}

async function createClient(config: OpenAIConfig): Promise<LoadedClient> {
  let openai: OpenAIModule
  try {
    openai = await import('openai')
  } catch (err) {
    throw new ProviderError('embedding_provider_unavailable', 'The openai package could not be loaded.', {
      hint: "Reinstall brain's dependencies (npm ci), or use the local embedding provider.",
      cause: err,
    })
  }
  const client = new openai.OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    // Passed explicitly so that credentials come from brain's configuration, never from stray
    // OPENAI_* variables in the environment.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: config.timeoutMs,
    ...(config.maxRetries === undefined ? {} : { maxRetries: config.maxRetries }),
  })
  return { openai, client }
}

async function requestBatch(loaded: LoadedClient, config: OpenAIConfig, input: string[], signal: AbortSignal, context: RequestContext): Promise<number[][]> {
  try {
    const response = await loaded.client.embeddings.create({ model: config.model, input, dimensions: EMBEDDING_DIMENSIONS, encoding_format: 'base64' }, { signal })
    return vectorsFromResponse(response, input.length)
  } catch (err) {
    throw toProviderError(err, loaded.openai, context)
  }
}

/**
 * Runs batches a few at a time and returns their results in batch order. The first failure
 * cancels the requests still in flight: the caller gets one error, not a bill for the rest.
 */
async function runBatches<T>(batches: Array<[number, number]>, outer: AbortSignal | undefined, run: (signal: AbortSignal, batch: [number, number]) => Promise<T>): Promise<T[]> {
  const controller = new AbortController()
  const signal = outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal])
  const limit = pLimit(OPENAI_REQUEST_CONCURRENCY)
  try {
    return await Promise.all(
      batches.map((batch) =>
        limit(async () => {
          // Covers both the caller's abort and a sibling batch having failed already.
          if (signal.aborted) throw abortedError(outer)
          return run(signal, batch)
        }),
      ),
    )
  } finally {
    controller.abort()
  }
}
