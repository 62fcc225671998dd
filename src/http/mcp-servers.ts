import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { VerifiedToken } from '../auth/index.js'
import type { OperationContext } from '../mcp/context.js'
import type { HttpDeps } from './types.js'

export interface McpAnswer {
  status: number
  contentType: string
  text: string
  /** The tool's error code, when a tools/call failed. */
  toolError: string | null
}

interface RequestState {
  toolError: string | null
}

const IDLE_SERVERS_KEPT = 32

/**
 * Answers one MCP message on a fresh stateless transport that replies with JSON. Servers are
 * reused between requests (building one costs more than the average tool call); the caller's
 * token travels as the request's auth info, so a reused server never mixes callers.
 */
export class McpServerPool {
  private readonly idle: Server[] = []

  constructor(private readonly deps: HttpDeps) {}

  private contextFor(authInfo: AuthInfo | undefined): OperationContext {
    const { deps } = this
    return {
      brain: async () => ({ db: deps.db, config: deps.config }),
      logger: deps.logger,
      dryRun: false,
      remote: true,
      scopes: (authInfo?.scopes ?? []) as OperationContext['scopes'],
      remoteSlugPrefixes: deps.config.http.remoteSlugPrefixes,
    }
  }

  private async acquire(): Promise<Server> {
    const reused = this.idle.pop()
    if (reused) return reused
    const { createMcpServer } = await import('../mcp/server.js')
    return createMcpServer((authInfo) => this.contextFor(authInfo), {
      version: this.deps.version,
      onToolCall: (_name, outcome, authInfo) => {
        const state = authInfo?.extra?.state as RequestState | undefined
        if (state) state.toolError = outcome.errorCode
      },
    })
  }

  async answer(token: VerifiedToken, message: unknown, protocolVersion: string | undefined): Promise<McpAnswer> {
    const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')
    const server = await this.acquire()
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    const state: RequestState = { toolError: null }
    await server.connect(transport)
    let healthy = false
    try {
      // Any client may post plain JSON: the answer is always application/json, never a stream.
      const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' })
      if (protocolVersion !== undefined) headers.set('mcp-protocol-version', protocolVersion)
      const request = new Request('http://localhost/mcp', { method: 'POST', headers, body: '{}' })
      const authInfo: AuthInfo = { token: String(token.tokenId), clientId: token.name, scopes: token.scopes, extra: { state } }
      const response = await transport.handleRequest(request, { parsedBody: message, authInfo })
      const text = await response.text()
      healthy = true
      return { status: response.status, contentType: response.headers.get('content-type') ?? 'application/json', text, toolError: state.toolError }
    } finally {
      await server.close()
      if (healthy && this.idle.length < IDLE_SERVERS_KEPT) this.idle.push(server)
    }
  }
}
