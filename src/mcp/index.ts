/**
 * The MCP surface: one tool catalogue with zod schemas and one dispatcher, shared by the stdio
 * server (`brain serve`), the HTTP route (`brain serve --http`) and thin-client installs.
 * May import: errors, operations, util.
 */
export { TOOLS, findTool, listTools, resolveToolSelection, type ListedTool, type ToolSelection } from '../operations/index.js'
export { dispatchTool, errorResult, ScopeError, type ToolResult, type DispatchOutcome } from './dispatch.js'
export { createMcpServer, SERVER_NAME } from './server.js'
export { runStdioSession } from './stdio.js'
export { streamLogger } from './stream-logger.js'
export type { CallContext, Brain } from '../operations/index.js'
export type { Operation } from '../operations/index.js'
