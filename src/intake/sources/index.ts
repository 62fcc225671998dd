/**
 * Sources: registered folders and git working trees, the file filter sync and import share,
 * walking a folder and reading its files. Importing them is src/intake/import.
 * May import: chunking, db, errors, pages.
 */
export { createFileFilter, isMinifiedCode, parseSyncStrategy, SYNC_STRATEGIES, MAX_FILE_BYTES, type SyncStrategy, type FileKind, type FileFilter, type FileFilterOptions } from './file-filter.js'
export { compileGlobs, globToRegExp, type GlobSet } from './glob.js'
export { walkFiles, type WalkedFile, type IgnoredFile } from './walk.js'
export { readTextFile, decodeTextBytes } from './read-text.js'
export { readFirstBytes, readTextFileSync } from './read-text.js'
export { deleteSource, findSourceByPath, listSources, recordSourceBookmark, requireSource, type SourceConfig, type SourceRecord } from './source-repository.js'
export { acceptPath, kindByExtension, slugForPath } from './path-kind.js'
