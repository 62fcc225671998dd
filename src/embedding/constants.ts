/** Width of content_chunks.embedding (vector(1536)); every provider returns exactly this many numbers. */
export const EMBEDDING_DIMENSIONS = 1536

/** Per-input token cap of the OpenAI embedding models, counted with cl100k_base. */
export const EMBEDDING_INPUT_TOKEN_CAP = 8191

/** Price constant of the cost preview (text-embedding-3-large). */
export const EMBEDDING_USD_PER_1K_TOKENS = 0.00013

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-large'
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1'
export const DEFAULT_OPENAI_BATCH_SIZE = 100
export const DEFAULT_OPENAI_TIMEOUT_MS = 60_000

/** The OpenAI embeddings endpoint accepts at most 2048 inputs per request. */
export const OPENAI_MAX_INPUTS_PER_REQUEST = 2048

/** The OpenAI embeddings endpoint rejects requests whose inputs sum to more than 300,000 tokens. */
export const OPENAI_MAX_TOKENS_PER_REQUEST = 300_000

/** Requests in flight at once for one embed() call: enough to hide latency, few enough to stay clear of rate limits. */
export const OPENAI_REQUEST_CONCURRENCY = 4

/**
 * Inputs per local model call, chosen by measurement (bench/embed): larger batches make the
 * model's matrix products outgrow the CPU caches and cost more per input, not less.
 */
export const DEFAULT_LOCAL_BATCH_SIZE = 4
