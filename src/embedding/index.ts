/**
 * The embedding room: one folder for everything about vectors.
 * - `providers/`: the provider clients (OpenAI-compatible, with batching, token caps and cost)
 *   and the choice of provider from the configuration;
 * - `local/`: the offline model (its weights, tokenizer, ONNX graph, worker pool and runtimes);
 * - `store/`: embedding chunks and storing their vectors (`brain embed`, the import follower).
 * Heavy modules (openai, tfjs and the local model, the cl100k tokenizer) load on first use, so
 * importing this module and creating a provider are cheap.
 * May import: config, db, errors.
 */
import { ConfigError } from '../errors/index.js'
import { createLocalProvider } from './local/local-provider.js'
import { createOpenAIProvider } from './providers/openai-provider.js'
import { tokenCounter } from './tokens.js'
import type { EmbeddingProvider, EmbeddingSettings } from './types.js'

export { EMBEDDING_DIMENSIONS, EMBEDDING_INPUT_TOKEN_CAP, EMBEDDING_USD_PER_1K_TOKENS } from './constants.js'
export { estimateEmbeddingCostUsd } from './providers/cost.js'
export { LOCAL_MODEL_ID, LOCAL_MODEL_NATIVE_DIMENSIONS } from './local/local-model.js'
export { configureLocalEmbeddings, disposeLocalEmbeddings, type LocalRuntimeOptions } from './local/local-runtime.js'
export type { EmbeddingProvider, EmbeddingProviderName, EmbeddingSettings, EmbedOptions } from './types.js'
export { parseVectorLiteral, toVectorLiteral } from './store/vector-literal.js'
export { assertUsableVector, nonEmptyInput, padToDimensions } from './store/vectors.js'

export function createEmbeddingProvider(settings: EmbeddingSettings): EmbeddingProvider {
  switch (settings.provider) {
    case 'openai':
      return createOpenAIProvider(settings, tokenCounter)
    case 'local':
      return createLocalProvider(settings)
    default:
      throw new ConfigError('embedding_unknown_provider', `Unknown embedding provider '${String(settings.provider)}'.`, {
        hint: "Use 'openai' (with OPENAI_API_KEY or an OpenAI-compatible base URL) or 'local'.",
      })
  }
}

export { capToTokenLimit, countTokens } from './tokens.js'
