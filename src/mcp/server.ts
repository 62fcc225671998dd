import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { listTools } from '../operations/catalogue.js'
import type { OperationContext, ToolSelection } from '../operations/index.js'
import { dispatchTool, type DispatchOutcome } from './dispatch.js'

export const SERVER_NAME = 'brain'

interface McpServerOptions {
  version: string
  /** The tools this server lists and runs (default: the whole catalogue). */
  tools?: ToolSelection
  /** Called after each tools/call, e.g. to fill the HTTP audit row. */
  onToolCall?: (name: string, outcome: DispatchOutcome, authInfo: AuthInfo | undefined) => void
}

/** A fixed context (stdio), or one built per request from the caller's credentials (HTTP). */
type ContextSource = OperationContext | ((authInfo: AuthInfo | undefined) => OperationContext)

/** One MCP server over the catalogue; the transport is attached by the caller. */
export async function createMcpServer(source: ContextSource, options: McpServerOptions): Promise<Server> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js')
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      instructions: 'brain is a personal knowledge base of markdown notes and source code. Use search or query to find pages, get_page to read one, put_page or capture to write.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(options.tools?.names) }))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const ctx = typeof source === 'function' ? source(extra.authInfo) : source
    const outcome = await dispatchTool(ctx, request.params.name, request.params.arguments, options.tools)
    options.onToolCall?.(request.params.name, outcome, extra.authInfo)
    return outcome.result
  })
  return server
}
