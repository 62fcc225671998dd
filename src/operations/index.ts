/**
 * The operation catalogue: every user-facing operation defined once (input schema, call into
 * the core, result, human presentation). MCP serves the catalogue as tools, the CLI generates
 * commands from the operations that have a `cli` shape, and thin clients call the same tools
 * remotely.
 * May import: activity, answers, auth, backup, code, config, db, doctor, errors, export,
 * frontmatter, history, intake/capture, intake/sources, intake/sync, links, memory, models, oauth,
 * pages, queue, releases/version, search, util.
 */
export { OPERATIONS, TOOLS, findTool, listTools, type ListedTool } from './catalogue.js'
export { ALL_TOOLS, TOOL_PROFILES, profileTools, resolveToolSelection, type ToolProfileName, type ToolSelection } from './profiles.js'
export { defineOperation, type Operation, type CliShape, type CliOption, type TextView } from './operation.js'
export type { CallContext, Brain } from './call-context.js'
export { sourceLine } from './system.js'
export { listSupervisorEventsTool, supervisorEventLine } from './operate.js'
export { exportFilesTool } from './export.js'
export { jobDetailText, jobLine, submitJobTool } from './jobs.js'
export { syncTool, syncExitCode } from './sync.js'
export { extractLinksTool } from './derive-links.js'
export { embedChunksTool } from './embed.js'
export { reindexSearchTool } from './reindex.js'
export { runAutopilotCycleTool } from './dream.js'
