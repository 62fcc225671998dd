export { embedAndStore, pendingChunksOfPages, type PendingChunk, type EmbedBatchResult } from './embed-chunks.js'
export { embeddingProviderFor } from './provider.js'
export {
  runEmbed,
  embedStale,
  embedAll,
  countStaleChunks,
  listStaleChunkIds,
  STALE_LIST_LIMIT,
  type EmbedMode,
  type EmbedProgress,
  type EmbedRunOptions,
  type EmbedRunResult,
} from './run-embed.js'
