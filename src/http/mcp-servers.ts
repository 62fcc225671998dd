import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { VerifiedToken } from '../auth/index.js'
import type { CallContext } from '../operations/index.js'
import type { HttpDeps } from './types.js'

interface McpAnswer {
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

/** A single, well-formed tools/call request: the one message a busy server answers most. */
interface PlainToolCall {
  id: string | number
  name: string
  arguments: Record<string, unknown> | undefined
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/**
 * The message when it is exactly `{jsonrpc, id, method: "tools/call", params: {name, arguments?}}`
 * with nothing else in it; anything unusual (batches, notifications, _meta, tasks, odd ids) is
 * left to the SDK so that every edge keeps the SDK's answer.
 */
function plainToolCall(message: unknown): PlainToolCall | null {
  if (!isPlainObject(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return null
  if (Object.keys(message).some((key) => key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params')) return null
  const { id, params } = message
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null
  if (!isPlainObject(params) || typeof params.name !== 'string') return null
  if (Object.keys(params).some((key) => key !== 'name' && key !== 'arguments')) return null
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return null
  return { id, name: params.name, arguments: params.arguments as Record<string, unknown> | undefined }
}

/**
 * Answers one MCP message on a fresh stateless transport that replies with JSON. Servers are
 * reused between requests (building one costs more than the average tool call); the caller's
 * token travels as the request's auth info, so a reused server never mixes callers.
 */
let protocolVersions: Promise<readonly string[]> | undefined

function supportedProtocolVersions(): Promise<readonly string[]> {
  protocolVersions ??= import('@modelcontextprotocol/sdk/types.js').then((types) => types.SUPPORTED_PROTOCOL_VERSIONS)
  return protocolVersions
}

export class McpServerPool {
  private readonly idle: Server[] = []

  constructor(private readonly deps: HttpDeps) {}

  private contextFor(authInfo: AuthInfo | undefined): CallContext {
    const { deps } = this
    return {
      brain: async () => ({ db: deps.db, config: deps.config }),
      logger: deps.logger,
      dryRun: false,
      remote: true,
      scopes: (authInfo?.scopes ?? []) as CallContext['scopes'],
      remoteSlugPrefixes: deps.config.http.remoteSlugPrefixes,
      caller: authInfo?.clientId ?? null,
      sourceLimit: typeof authInfo?.extra?.sourceId === 'string' ? authInfo.extra.sourceId : null,
    }
  }

  private async acquire(): Promise<Server> {
    const reused = this.idle.pop()
    if (reused) return reused
    const { createMcpServer } = await import('../mcp/server.js')
    return createMcpServer((authInfo) => this.contextFor(authInfo), {
      version: this.deps.version,
      tools: this.deps.mcpTools,
      onToolCall: (_name, outcome, authInfo) => {
        const state = authInfo?.extra?.state as RequestState | undefined
        if (state) state.toolError = outcome.errorCode
      },
    })
  }

  async answer(token: VerifiedToken, message: unknown, protocolVersion: string | undefined): Promise<McpAnswer> {
    const call = plainToolCall(message)
    if (call !== null && (protocolVersion === undefined || (await supportedProtocolVersions()).includes(protocolVersion))) return this.answerToolCall(token, call)
    return this.answerThroughSdk(token, message, protocolVersion)
  }

  /**
   * A plain tools/call answered straight from the dispatcher, as the SDK server would answer it
   * (same handler, same JSON-RPC reply) without building a web Request, a transport and a
   * connection for it: on a busy server that machinery cost more than the search it carried.
   */
  private async answerToolCall(token: VerifiedToken, call: PlainToolCall): Promise<McpAnswer> {
    const { dispatchTool, toolResultJson } = await import('../mcp/dispatch.js')
    const authInfo: AuthInfo = { token: token.rateKey, clientId: token.name, scopes: token.scopes, extra: { sourceId: token.sourceId ?? null } }
    const outcome = await dispatchTool(this.contextFor(authInfo), call.name, call.arguments, this.deps.mcpTools)
    const text = `{"result":${toolResultJson(outcome.result)},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`
    return { status: 200, contentType: 'application/json', text, toolError: outcome.errorCode }
  }

  private async answerThroughSdk(token: VerifiedToken, message: unknown, protocolVersion: string | undefined): Promise<McpAnswer> {
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
      const authInfo: AuthInfo = { token: token.rateKey, clientId: token.name, scopes: token.scopes, extra: { state, sourceId: token.sourceId ?? null } }
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
