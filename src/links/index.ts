/**
 * Links between pages: code citations in notes (documents / documented_by), their storage
 * and queries, reconcile and extract. May import pages, db, config, errors, util.
 */
export { CITATION_ROOTS, citationsIn, pageCitations, type CitationField, type CodeCitation } from './citations.js'
export { getLinks, getBacklinks, type PageLink } from './links.js'
export { reconcileLinks, deriveLinks, autoLinkEnabled, type ReconcileOptions, type ReconcileResult } from './reconcile.js'
export { linkImportedMarkdown } from './import-links.js'
export { addCitationLinks, deleteCitationLinks, countMissingCitationLinks, type LinkWriteCounts, type MarkdownPageRef } from './repository.js'
