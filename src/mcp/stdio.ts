import type { Readable, Writable } from 'node:stream'
import type { CallContext, ToolSelection } from '../operations/index.js'
import { createMcpServer } from './server.js'
import { LineTransport } from './stdio-transport.js'

interface StdioSessionOptions {
  stdin: Readable
  stdout: Writable
  ctx: CallContext
  version: string
  /** The tool profile served (default: the whole catalogue). */
  tools?: ToolSelection
}

/** Serves MCP over the given streams until the input ends. */
export async function runStdioSession(options: StdioSessionOptions): Promise<void> {
  const { JSONRPCMessageSchema } = await import('@modelcontextprotocol/sdk/types.js')
  const server = await createMcpServer(options.ctx, { version: options.version, tools: options.tools })
  const transport = new LineTransport(options.stdin, options.stdout, {
    isMessage: (value): value is import('@modelcontextprotocol/sdk/types.js').JSONRPCMessage => JSONRPCMessageSchema.safeParse(value).success,
  })
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
  })
  server.onerror = (error) => options.ctx.logger.warn(`protocol error: ${error.message}`)
  await server.connect(transport)
  await closed
}
