/**
 * Export: the brain back out as files — each page as `<slug>.md` with its front matter, tags and
 * timeline (other sources under `.sources/<id>/`) — that import into the same pages.
 * May import: db, errors, intake/import, pages, util.
 */
export { exportPages, exportFileOf, writeExport, type ExportOptions, type ExportResult, type ExportFile } from './export-pages.js'
export { pagesToExport, type ExportFilter } from './export-query.js'
