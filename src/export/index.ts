/**
 * Export: the brain back out as files — each page as `<slug>.md` with its front matter, tags and
 * timeline (other sources under `.sources/<id>/`) — that import into the same pages.
 * May import: db, errors, intake/import, pages, util.
 */
export { exportPages, type ExportOptions, type ExportResult } from './export-pages.js'
export type { ExportFilter } from './export-query.js'
