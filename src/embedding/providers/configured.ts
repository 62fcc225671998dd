import type { EmbeddingConfig } from '../../config/index.js'
import { createEmbeddingProvider, type EmbeddingProvider } from '../index.js'

/** The embedding provider the configuration selects: OpenAI with a key, else the local model. */
export function embeddingProviderFor(config: EmbeddingConfig): EmbeddingProvider {
  return createEmbeddingProvider({
    provider: config.provider,
    openaiApiKey: config.openaiApiKey ?? undefined,
    openaiBaseUrl: config.openaiBaseUrl ?? undefined,
    openaiModel: config.openaiModel ?? undefined,
  })
}
