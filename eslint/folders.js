// The folders of the code and what each may import: the one declaration behind
// docs/architecture.md. The linter reads it (eslint/folder-imports.js), every src/<folder>/index.ts
// header states the same list on its "May import:" line, and scripts/check-architecture.mjs fails
// when the two differ. Add an edge here, in the header and in the drawing together; an edge that
// would close a cycle is refused by the cycle check.
//
// A folder is a top-level folder of src/ (its sub-folders belong to it), a sub-folder of a room
// (named by its path, `intake/import`), or workers/ or supervisor/; `src` stands for the package
// root, src/index.ts. A room (ROOMS) only groups folders: it holds their sub-folders and an
// index.ts that describes them and exports nothing, so no folder may import a room, and folders of
// one room import each other only as declared, like any two folders. Layers import downward only:
// surface → transport → operations → capability → foundation. `imports` lists the folders a
// folder may import beside its own; '*' (the composition root only) means any folder below it.

/** @typedef {'surface' | 'transport' | 'operations' | 'capability' | 'foundation'} Layer */
/** @typedef {{ layer: Layer, imports: readonly string[] | '*' }} FolderRule */

/** Folders of src/ that group sub-folders, each a folder of the table: what the room is for. */
export const ROOMS = {
  intake: 'bringing content in: folder import, sources and git sync, capture, the ingestion daemon and webhook',
  releases: 'release versions, the update check and upgrades between releases',
}

/** Highest first: a folder may import folders of its own layer (as declared) and of the layers after it. */
export const LAYERS = ['surface', 'transport', 'operations', 'capability', 'foundation']

/** @type {Record<string, FolderRule>} */
export const FOLDERS = {
  // surfaces: what a person or a host process starts
  cli: { layer: 'surface', imports: '*' },
  service: { layer: 'surface', imports: ['config', 'db', 'errors', 'http', 'models', 'queue', 'releases/version', 'util'] },
  supervisor: { layer: 'surface', imports: ['config', 'db', 'util'] },
  src: { layer: 'surface', imports: ['config', 'db', 'errors', 'export', 'releases/version'] },

  // transports: the MCP server and the HTTP pipeline, over the operation catalogue
  http: { layer: 'transport', imports: ['activity', 'auth', 'config', 'db', 'errors', 'intake/ingestion', 'mcp', 'oauth', 'operations', 'pages', 'queue', 'util'] },
  mcp: { layer: 'transport', imports: ['errors', 'operations', 'util'] },

  // the operation catalogue and the job handlers: the one call path into the capabilities
  operations: {
    layer: 'operations',
    imports: [
      'activity',
      'answers',
      'auth',
      'backup',
      'code',
      'config',
      'db',
      'doctor',
      'errors',
      'export',
      'frontmatter',
      'history',
      'intake/capture',
      'intake/sources',
      'intake/sync',
      'links',
      'memory',
      'models',
      'oauth',
      'pages',
      'queue',
      'releases/version',
      'search',
      'util',
    ],
  },
  workers: {
    layer: 'operations',
    imports: [
      'agents',
      'backup',
      'config',
      'convert',
      'db',
      'embedding',
      'errors',
      'frontmatter',
      'history',
      'intake/capture',
      'intake/import',
      'intake/ingestion',
      'intake/sources',
      'intake/sync',
      'links',
      'models',
      'pages',
      'queue',
      'releases/version',
    ],
  },

  // capabilities, each listed after what it builds on
  activity: { layer: 'capability', imports: ['db', 'errors'] },
  auth: { layer: 'capability', imports: ['db', 'errors'] },
  oauth: { layer: 'capability', imports: ['auth', 'db', 'errors'] },
  'releases/version': { layer: 'capability', imports: ['errors', 'util'] },
  'releases/update': { layer: 'capability', imports: ['config', 'errors', 'releases/version'] },
  backup: { layer: 'capability', imports: ['config', 'db', 'errors', 'releases/version'] },
  skills: { layer: 'capability', imports: ['util'] },
  queue: { layer: 'capability', imports: ['config', 'db', 'errors', 'util'] },
  history: { layer: 'capability', imports: ['config', 'db', 'errors'] },
  embedding: { layer: 'capability', imports: ['config', 'db', 'errors'] },
  models: { layer: 'capability', imports: ['config', 'db', 'embedding', 'errors', 'util'] },
  chunking: { layer: 'capability', imports: [] },
  code: { layer: 'capability', imports: ['chunking', 'db', 'errors'] },
  search: { layer: 'capability', imports: ['chunking', 'code', 'config', 'db', 'embedding', 'errors', 'models'] },
  // convert reads chunking's table of fence languages to tag code blocks of web pages
  convert: { layer: 'capability', imports: ['chunking', 'errors', 'util'] },
  // links asks convert which document names make a single page (a link to a PDF is a page link)
  links: { layer: 'capability', imports: ['chunking', 'config', 'convert', 'db', 'errors', 'util'] },
  // pages reads the front matter that Org, Logseq and Notion files carry in their own ways through convert's parsers
  pages: { layer: 'capability', imports: ['chunking', 'code', 'convert', 'db', 'embedding', 'errors', 'history', 'links', 'util'] },
  memory: { layer: 'capability', imports: ['db', 'embedding', 'errors', 'links', 'pages'] },
  'intake/sources': { layer: 'capability', imports: ['chunking', 'db', 'errors', 'pages'] },
  'intake/import': { layer: 'capability', imports: ['convert', 'db', 'embedding', 'errors', 'history', 'intake/sources', 'pages'] },
  export: { layer: 'capability', imports: ['db', 'errors', 'intake/import', 'pages', 'util'] },
  'intake/sync': { layer: 'capability', imports: ['chunking', 'config', 'db', 'embedding', 'errors', 'history', 'intake/import', 'intake/sources', 'pages', 'util'] },
  'intake/capture': { layer: 'capability', imports: ['config', 'db', 'embedding', 'errors', 'intake/import', 'models', 'pages', 'util'] },
  'intake/ingestion': { layer: 'capability', imports: ['config', 'convert', 'db', 'errors', 'intake/capture', 'intake/import', 'intake/sources', 'pages', 'queue', 'util'] },
  frontmatter: { layer: 'capability', imports: ['config', 'db', 'errors', 'intake/sources', 'pages', 'util'] },
  agents: { layer: 'capability', imports: ['config', 'convert', 'db', 'errors', 'models', 'pages', 'util'] },
  'releases/upgrade': { layer: 'capability', imports: ['config', 'db', 'errors', 'frontmatter', 'intake/sources', 'releases/version'] },
  answers: { layer: 'capability', imports: ['config', 'db', 'embedding', 'errors', 'search'] },
  doctor: { layer: 'capability', imports: ['agents', 'answers', 'backup', 'config', 'db', 'errors', 'history', 'intake/sources', 'models', 'queue', 'releases/upgrade', 'util'] },
  // integrations reports its recipes' checks in doctor's check shape
  integrations: { layer: 'capability', imports: ['config', 'db', 'doctor', 'errors', 'util'] },

  // the foundation every layer stands on
  config: { layer: 'foundation', imports: ['db', 'errors'] },
  db: { layer: 'foundation', imports: ['errors', 'util'] },
  util: { layer: 'foundation', imports: ['errors'] },
  errors: { layer: 'foundation', imports: [] },
}

/**
 * Static imports past a folder's index.ts, by importing file: the exceptions to the rule, each kept
 * because going through the index would load much more than the one module needed.
 * - The thin client's start path (`brain <command>` forwarding to the service, and the agent hooks,
 *   which must answer within the agent's time limit) imports only the few modules it needs.
 * - The others take one light module (a handler type, a table of languages, the sources
 *   repository, the package root) of a folder whose index loads the whole folder: queue's index
 *   loads pg-boss's worker, sources' and ingestion's over a hundred modules, util's the YAML
 *   front-matter reader, chunking's the grammars' table, operations' the whole catalogue. Each
 *   goes when its folder's index becomes light or the module moves to a lighter folder.
 * @type {Record<string, readonly string[]>}
 */
export const DEEP_IMPORTS = {
  'workers/ingest-capture.ts': ['src/intake/ingestion/event.ts', 'src/intake/ingestion/to-markdown.ts'],
  // the thin client's start path
  'src/cli/entry.ts': ['src/config/env.ts'],
  'src/cli/forward.ts': ['src/config/env.ts', 'src/config/file-config.ts', 'src/config/home.ts', 'src/service/client.ts', 'src/service/identity.ts'],
  'src/cli/hook-client.ts': ['src/config/env.ts', 'src/config/home.ts', 'src/service/identity.ts', 'src/service/paths.ts', 'src/service/protocol.ts'],
  'src/cli/hook.ts': ['src/agents/hook-events.ts', 'src/config/home.ts'],
  'src/cli/hook-call.ts': ['src/config/env.ts', 'src/config/file-config.ts', 'src/config/home.ts'],
  'src/cli/hook-service.ts': ['src/config/file-config.ts'],
  'src/service/client.ts': ['src/util/package-root.ts', 'src/util/process-alive.ts', 'src/util/background-threads.ts'],
  'src/service/identity.ts': ['src/util/package-root.ts'],
  // the launcher names this install's bin/brain.js, wherever the running module was loaded from
  'src/agents/launcher.ts': ['src/util/package-root.ts'],
  // recall's path, which a hook runs on every prompt: the names, the token count and the default
  // source without the links, embedding and pages folders behind them
  'src/memory/names.ts': ['src/links/name-words.ts'],
  'src/memory/recall.ts': ['src/embedding/tokens.ts', 'src/pages/types.ts'],
  'src/memory/session-start.ts': ['src/pages/types.ts'],
  // one light module of a heavy folder
  'src/intake/capture/capture-document.ts': ['src/intake/import/import-documents.ts'],
  'src/cli/brain-command.ts': ['src/util/json-shape.ts'],
  'src/cli/commands/frontmatter.ts': ['src/intake/sources/source-repository.ts'],
  'src/cli/commands/jobs.ts': ['src/operations/jobs.ts'],
  'src/cli/commands/models.ts': ['src/util/logger.ts'],
  'src/cli/commands/sources.ts': ['src/intake/sources/source-repository.ts'],
  'src/cli/job-runner.ts': ['src/util/logger.ts'],
  'src/cli/main.ts': ['src/queue/handler.ts'],
  'src/code/query-args.ts': ['src/chunking/languages.ts'],
  'src/convert/html.ts': ['src/chunking/languages.ts'],
  'src/db/lock.ts': ['src/util/process-alive.ts'],
  'src/db/migrate.ts': ['src/util/package-root.ts'],
  'src/db/template.ts': ['src/util/package-root.ts'],
  'src/doctor/queue.ts': ['src/queue/settings.ts'],
  'src/doctor/service.ts': ['src/util/process-alive.ts'],
  'src/doctor/sources.ts': ['src/intake/sources/source-repository.ts'],
  'src/frontmatter/roots.ts': ['src/intake/sources/source-repository.ts'],
  'src/frontmatter/validate.ts': ['src/pages/slug.ts'],
  'src/http/api-route.ts': ['src/operations/catalogue.ts'],
  'src/http/ingest-route.ts': ['src/intake/ingestion/dispatch.ts', 'src/intake/ingestion/event.ts', 'src/pages/slug.ts'],
  'src/http/ui-route.ts': ['src/util/package-root.ts'],
  'src/intake/ingestion/plugins.ts': ['src/util/package-root.ts'],
  'src/intake/ingestion/sources/inbox.ts': ['src/intake/sources/read-text.ts'],
  'src/intake/ingestion/sources/watcher.ts': ['src/intake/import/import-documents.ts', 'src/intake/sources/file-filter.ts', 'src/intake/sources/read-text.ts'],
  'src/integrations/report.ts': ['src/doctor/types.ts'],
  'src/links/citations.ts': ['src/chunking/languages.ts'],
  'src/mcp/dispatch.ts': ['src/operations/catalogue.ts', 'src/util/json-shape.ts'],
  'src/mcp/server.ts': ['src/operations/catalogue.ts'],
  'src/models/inspect.ts': ['src/util/contained-path.ts'],
  'src/operations/dream.ts': ['src/queue/autopilot-phases.ts'],
  'src/operations/jobs.ts': ['src/queue/types.ts'],
  'src/pages/write-through.ts': ['src/util/contained-path.ts'],
  'src/queue/sql/workers.ts': ['src/util/process-alive.ts'],
  'src/releases/version/version.ts': ['src/util/package-root.ts'],
  'src/search/near-symbol.ts': ['src/code/graph.ts'],
  'src/search/options.ts': ['src/chunking/languages.ts'],
  'src/service/host.ts': ['src/queue/worker.ts'],
  'src/service/web-app.ts': ['src/http/server.ts', 'src/http/ui-sessions.ts'],
  'src/intake/sync/collect.ts': ['src/intake/sources/path-kind.ts'],
  'src/intake/sync/lock.ts': ['src/util/process-alive.ts'],
  'src/intake/sync/plan.ts': ['src/intake/sources/path-kind.ts'],
  'src/intake/sync/target.ts': ['src/intake/sources/source-repository.ts'],
  'supervisor/spawn.ts': ['src/util/package-root.ts', 'src/util/background-threads.ts'],
}

/**
 * Modules that another folder may load on their own with import(), past their folder's index.ts:
 * each is loaded lazily on a path where loading the whole folder would cost start-up time (the
 * thin client's forward, a command's run) or pull in heavy packages (the HTTP server, pg-boss's
 * worker, the MCP SDK). Static and type imports of them still go through the index.
 * @type {Record<string, readonly string[]>}
 */
export const LAZY_ENTRIES = {
  config: ['home.ts'],
  db: ['open.ts'],
  http: ['api-route.ts', 'limits.ts', 'server.ts', 'ui-route.ts', 'ui-sessions.ts'],
  'intake/ingestion': ['plugins.ts', 'run-daemon.ts'],
  mcp: ['dispatch.ts', 'remote-client.ts', 'remote-oauth.ts', 'server.ts'],
  memory: ['recall.ts', 'session-start.ts', 'source-dir.ts'],
  operations: ['answers.ts', 'backup.ts', 'capture.ts', 'history.ts', 'jobs.ts', 'memory.ts', 'pages.ts'],
  pages: ['import-page.ts', 'serialize.ts'],
  queue: ['envelope.ts', 'worker.ts'],
  service: ['call.ts', 'client.ts', 'control.ts', 'identity.ts', 'paths.ts', 'server.ts'],
  'intake/sources': ['file-filter.ts', 'source-repository.ts'],
  'intake/sync': ['gate.ts', 'git.ts', 'remove-source.ts', 'target.ts'],
  util: ['json-shape.ts', 'logger.ts', 'package-root.ts'],
}

/** Whether `path` (repository-relative) is declared in LAZY_ENTRIES. */
export function isLazyEntry(path) {
  const folder = folderOf(path)
  if (folder === undefined || !path.startsWith(`src/${folder}/`)) return false
  return (LAZY_ENTRIES[folder] ?? []).includes(path.slice(`src/${folder}/`.length))
}

/**
 * The folder a repository-relative path belongs to, or undefined outside the checked code. A file
 * of a room's sub-folder belongs to `<room>/<sub-folder>`; the room's own files (its index.ts)
 * belong to the room, which no folder may import.
 */
export function folderOf(path) {
  const parts = path.split('/')
  if (parts[0] === 'src') {
    if (parts.length === 2) return 'src'
    if (Object.hasOwn(ROOMS, parts[1]) && parts.length >= 4) return `${parts[1]}/${parts[2]}`
    return parts[1]
  }
  if (parts[0] === 'workers' || parts[0] === 'supervisor') return parts[0]
  return undefined
}

/** Whether `path` (repository-relative) is a public entry of its folder: the index.ts of the folder or of one of its sub-folders. */
export function isFolderEntry(path) {
  if (!path.startsWith('src/')) return true
  const folder = folderOf(path)
  return path.startsWith(`src/${folder}/`) && path.endsWith('/index.ts')
}

/** Whether `from` may import `to` (both folder names) by the table and the layers. */
export function mayImport(from, to) {
  const rule = FOLDERS[from]
  const target = FOLDERS[to]
  if (rule === undefined || target === undefined) return false
  if (LAYERS.indexOf(target.layer) < LAYERS.indexOf(rule.layer)) return false
  return rule.imports === '*' || rule.imports.includes(to)
}
