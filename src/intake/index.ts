/**
 * Intake: the room for bringing content in. Each way in is a folder of its own, declared in
 * eslint/folders.js and imported through its own index.ts; this room only groups them.
 * - sources/: registered folders and git working trees, the shared file filter, walking and
 *   reading files.
 * - import/: a folder's files (and documents) through the one page pipeline.
 * - sync/: git sync of a source, from its bookmark, through the importer.
 * - capture/: a thought, a file or a URL made into a page.
 * - ingestion/: the ingestion daemon, its plugins, the webhook's dispatch and the published
 *   event contract (`brain/ingestion`).
 */
export {}
