/**
 * Pages: slugs, parsing markdown (front matter, compiled truth, timeline, tags), the one import
 * pipeline every writer goes through (chunks, hashes, code graph, citation links), put with
 * write-through, and serialising pages back to markdown.
 * May import: chunking, code, convert, db, embedding, errors, history, links, util.
 */
export * from './types.js'
export { normalizeSlug, markdownSlugForPath, codeSlugForPath, MAX_SLUG_LENGTH } from './slug.js'
export { parseMarkdownPage, type ParsedMarkdown } from './parse-markdown.js'
export { isNoteFileName } from './note-files.js'
export { computePageContentHash } from './content-hash.js'
export { findPage, findPagesByIds, findPageHash, listPages, deletePage, countPages, type ListPagesFilter } from './page-repository.js'
export { changePageTag } from './retag.js'
export { listTagCounts, type TagCount } from './tag-counts.js'
export { listChunks, upsertChunks, type ChunkWrite } from './chunk-repository.js'
export { importPage, MAX_PAGE_BYTES, type ImportInput, type ImportOptions, type ImportResult, type ImportStatus } from './import-page.js'
export { importPages, planPages, writePlannedPages, type BatchOutcome, type PlannedBatch, type PlanOptions } from './import-batch.js'
export { putPage, type PutPageContext, type PutPageInput, type PutPageResult } from './put-page.js'
export { serializePage } from './serialize.js'
export { isSourceHashCurrent, sourceHashesBySlug } from './source-hash.js'
export { writePageFile, writeThroughPath, type WriteThroughResult } from './write-through.js'
export { resolvePageRef, type PageRef } from './resolve-page.js'
export { isMarkdownFileName } from './note-files.js'
export { startVectorAnalysis, type VectorAnalyser } from './search-vectors.js'
