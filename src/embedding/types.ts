export type EmbeddingProviderName = 'openai' | 'local'

export interface EmbeddingSettings {
  provider: EmbeddingProviderName
  openaiApiKey?: string
  /** Any OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1. */
  openaiBaseUrl?: string
  /** Requested with dimensions: 1536. */
  openaiModel?: string
  /** Inputs per request (openai) or per model call (local). */
  batchSize?: number
  /** Per-request timeout of the openai provider. */
  timeoutMs?: number
  /** Retries of the openai client on connection errors, 408/409/429 and 5xx. */
  maxRetries?: number
}

export interface EmbedOptions {
  signal?: AbortSignal
  /** A search query or stored text; models trained with prefixes (`query: `) embed the two apart. Default passage. */
  purpose?: 'query' | 'passage'
}

export interface EmbeddingProvider {
  readonly name: EmbeddingProviderName
  /** Recorded per chunk in content_chunks.model; vector search compares only vectors of one model. */
  readonly model: string
  /** One vector of exactly EMBEDDING_DIMENSIONS numbers per input, in input order. */
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>
}
