/**
 * Chunking: splits markdown pages and source files into chunk drafts for content_chunks.
 *
 * Budgets are in estimated tokens (characters / 4, rounded up; see tokens.ts), and
 * `tokenCount` uses the same estimate. Chunking is deterministic: the same input always
 * yields the same chunks, which lets re-import reuse embeddings of unchanged chunks.
 * May import: nothing of brain.
 */
export const CHUNKER_VERSION = 4

export type { ChunkDraft, ChunkSource } from './types.js'
export type { CodeLanguage } from './languages.js'
export { CODE_EXTENSIONS, displayLanguage, isCodePath, languageForFenceTag, languageForPath } from './languages.js'
export { estimateTokens } from './tokens.js'
export { chunkCode, DEFAULT_CHUNK_SIZE_TOKENS } from './code-chunker.js'
export { chunkMarkdown, DEFAULT_MAX_FENCES } from './markdown-chunker.js'
export { labelPdfPages } from './pdf-pages.js'
export { ROOT_SCOPE, innerScope, symbolFor, type Scope } from './symbol-extraction.js'
export { lastLine } from './syntax.js'
