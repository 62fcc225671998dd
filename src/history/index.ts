/**
 * History: the numbered versions of a page's content, line diffs between them, the trash a
 * deleted page waits in (with everything that hangs off it) until it is restored or purged, and
 * the retention that bounds both. Knows pages only as rows: it never imports src/pages, which
 * records versions through it.
 * May import: config, db, errors.
 */
export { archiveCurrentContent, listVersions, findVersion, latestVersionNumber, type VersionContent, type PageVersion, type VersionSummary } from './versions.js'
export { lineChanges, unifiedDiff } from './line-diff.js'
export { trashPages, hardDeletePages, listTrash, restoreFromTrash, purgeTrash, type TrashEntry, type RestoreResult, type TrashRef } from './trash.js'
export { historySettings, versionsCode, pruneHistory, historySpace, HISTORY_DEFAULTS, type HistorySettings, type HistorySpace, type PruneResult } from './retention.js'
