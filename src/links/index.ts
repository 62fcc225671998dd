/**
 * Links between pages, one model in one table, so every kind is queried, resolved and walked the
 * same way: explicit note links (wikilinks, embeds, markdown and front-matter property links),
 * code citations (documents / documented_by), entity mentions, their storage, resolution, queries
 * and the graph walk; reconcile and extract.
 * May import: chunking, config, convert, db, errors, util.
 */
export { CITATION_ROOTS, citationsIn, pageCitations, type CitationField, type CodeCitation } from './citations.js'
export { getLinks, getBacklinks, countLinks, MAX_LINKS, type PageLink, type LinkQuery } from './links.js'
export { noteLinks, slugKey, joinPath, type NoteLinkDraft, type NoteLinkSource } from './note-links.js'
export { graphWalk, MAX_WALK_DEPTH, MAX_WALK_NODES, type GraphWalkOptions, type GraphWalkResult, type GraphNode, type WalkDirection } from './graph.js'
export { listOrphans, listUnresolved, type OrphanPage, type WantedPage, type LooseEndQuery } from './wanted.js'
export { reconcileLinks, deriveLinks, autoLinkEnabled, type ReconcileOptions, type ReconcileResult, type ReconcileKinds, type LinkTypeCounts } from './reconcile.js'
export { listEntities, entityNames, entityTypes, mentionPhrases, type EntitySummary } from './mentions.js'
export { capitalizedWords, nameWords, normalizeName, DEFAULT_ENTITY_TYPES, DEFAULT_MENTION_STOPLIST } from './name-words.js'
export { linkImportedMarkdown, derivedLinkSettings, type DerivedLinkSettings } from './import-links.js'
export { addCitationLinks, deleteCitationLinks, countMissingCitationLinks, type LinkWriteCounts, type MarkdownPageRef } from './repository.js'
export { linkNewMarkdownPages } from './import-links.js'
