/**
 * Storing vectors: embedding the chunks that lack one (`brain embed --stale | --all`), the
 * follower that embeds an import's pages as they are written, and the vector columns.
 */
export { embedAndStore, pendingChunksOfPages, type PendingChunk, type EmbedBatchResult } from './embed-chunks.js'
export { embeddingProviderFor } from '../providers/configured.js'
export { runEmbed, embedStale, embedAll, countStaleChunks, listStaleChunkIds, STALE_LIST_LIMIT, type EmbedMode, type EmbedProgress, type EmbedRunOptions, type EmbedRunResult } from './run-embed.js'
export { EmbedFollower } from './embed-follower.js'
