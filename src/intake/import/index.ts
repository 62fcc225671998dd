/**
 * The file importer: files of a folder (or a sync's changes) through the one page pipeline,
 * each imported or reported (collisions, unreadable files, links and pipes), with progress,
 * embeddings following the writes, and planner statistics refreshed after; large mailboxes and
 * chat exports read from disk in parts.
 * May import: convert, db, embedding, errors, history, intake/sources, pages.
 */
export { importFiles, slugForFile, type ImportFilesResult, type ImportFilesOptions, type ImportFilesProgress, type FileFailure } from './import-files.js'
export { importFolder, type ImportFolderOptions, type ImportFolderResult } from './import-folder.js'
export { EXPORT_MANIFEST, readExportManifest, type ExportManifest } from './export-manifest.js'
export { importDocument, documentSlugForPath, type DocumentInput, type DocumentResult, type DocumentImportOptions } from './import-documents.js'
