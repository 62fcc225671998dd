/**
 * `brain/ingestion`: the published contract for ingestion sources. Breaking anything exported
 * here is a major-version change.
 * May import: config, convert, db, errors, intake/capture, intake/import, intake/sources, pages,
 * queue, util.
 */
export { validateIngestionEvent, computeContentHash, classifyContentType, TEXT_CONTENT_TYPES, PROCESSOR_HINT, type IngestionEvent, type TextContentType, type ContentClass } from './event.js'
export {
  INGESTION_SOURCE_API_VERSION,
  type IngestionSource,
  type IngestionSourceContext,
  type IngestionSourceFactory,
  type IngestionEngine,
  type IngestionPageView,
  type IngestionLogger,
  type EmitOutcome,
} from './contract.js'
export { PLUGIN_MANIFEST, type PluginManifest } from './plugins.js'
export { binaryContentError, isDocumentContentType } from './event.js'
export { eventToMarkdown } from './to-markdown.js'
export { countWaitingIngestJobs, submitIngestCapture } from './dispatch.js'
