import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import { listTools } from '../operations/catalogue.js'
import type { CallContext, ToolSelection } from '../operations/index.js'
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
type ContextSource = CallContext | ((authInfo: AuthInfo | undefined) => CallContext)

/** What the server's instructions point to, each clause kept only with the tools it names. */
const GUIDE: ReadonlyArray<{ tools: readonly string[]; purpose: string }> = [
  { tools: ['search', 'query'], purpose: 'to find pages' },
  { tools: ['get_page'], purpose: 'to read one' },
  { tools: ['put_page', 'capture'], purpose: 'to write' },
]

/** The instructions a client shows its model, naming only tools this session serves. */
function instructionsFor(tools: ToolSelection | undefined): string {
  const clauses = GUIDE.map(({ tools: named, purpose }) => ({ served: named.filter((name) => tools === undefined || tools.names.has(name)), purpose }))
    .filter(({ served }) => served.length > 0)
    .map(({ served, purpose }) => `${served.join(' or ')} ${purpose}`)
  const intro = 'brain is a personal knowledge base of markdown notes and source code.'
  return clauses.length === 0 ? intro : `${intro} Use ${clauses.join(', ')}.`
}

/** One MCP server over the catalogue; the transport is attached by the caller. */
export async function createMcpServer(source: ContextSource, options: McpServerOptions): Promise<Server> {
  const { Server } = await import('@modelcontextprotocol/sdk/server/index.js')
  const { CallToolRequestSchema, ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const server = new Server(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {} },
      instructions: instructionsFor(options.tools),
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
