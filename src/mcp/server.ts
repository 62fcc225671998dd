import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { listTools } from './catalogue.js'
import type { OperationContext } from './context.js'
import { dispatchTool, type DispatchOutcome } from './dispatch.js'

export const SERVER_NAME = 'brain'

export interface McpServerOptions {
  version: string
  /** Called after each tools/call, e.g. to fill the HTTP audit row. */
  onToolCall?: (name: string, outcome: DispatchOutcome) => void
}

/** One MCP server over the catalogue; the transport is attached by the caller. */
export async function createMcpServer(ctx: OperationContext, options: McpServerOptions): Promise<Server> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js')
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'brain is a personal knowledge base of markdown notes and source code. Use search or query to find pages, get_page to read one, put_page or capture to write.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools() }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const outcome = await dispatchTool(ctx, request.params.name, request.params.arguments)
    options.onToolCall?.(request.params.name, outcome)
    return outcome.result
  })
  return server
}
