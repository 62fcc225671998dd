export { embedAndStore, pendingChunksOfPages, type PendingChunk, type EmbedBatchResult } from './embed-chunks.js'
export { embeddingProviderFor } from './provider.js'
