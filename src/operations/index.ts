/**
 * The operation catalogue: every user-facing operation defined once (input schema, call into
 * the core, result, human presentation). MCP serves the catalogue as tools, the CLI generates
 * commands from the operations that have a `cli` shape, and thin clients call the same tools
 * remotely. May import the capabilities below it (pages, search, code, queue, …), config, db and
 * errors; never the surfaces (cli, mcp, http, service).
 */
export { OPERATIONS, TOOLS, findTool, listTools, type ListedTool } from './catalogue.js'
export { defineOperation, type Operation, type CliShape, type CliOption } from './operation.js'
export type { OperationContext, Brain } from './context.js'
