import { verifyBearer, type BearerFailure, type VerifiedToken } from '../auth/index.js'
import type { OperationContext } from '../mcp/context.js'
import { writeAudit, type AuditRow } from './audit.js'
import { readBodyCapped } from './body.js'
import { sendJson } from './respond.js'
import type { Route, RouteRequest } from './types.js'

const PARSE_ERROR = -32700

interface Outcome {
  status: number
  errorCode: string | null
}

/** The JSON-RPC method and tool name of a request, for the audit row. */
function describeCall(message: unknown): { method: string | null; toolName: string | null } {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return { method: null, toolName: null }
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } }
  return {
    method: typeof method === 'string' ? method.slice(0, 100) : null,
    toolName: method === 'tools/call' && typeof params?.name === 'string' ? params.name : null,
  }
}

function unauthorized(request: RouteRequest, reason: BearerFailure): Outcome {
  sendJson(request.res, 401, { error: 'unauthorized', reason }, { 'WWW-Authenticate': 'Bearer realm="brain"' })
  return { status: 401, errorCode: `unauthorized_${reason}` }
}

function rateLimited(request: RouteRequest, retryAfterSeconds: number, code: string): Outcome {
  sendJson(request.res, 429, { error: 'rate_limited', retry_after_seconds: retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) })
  return { status: 429, errorCode: code }
}

/** Runs the MCP server for one request on a stateless, JSON-answering transport. */
async function dispatch(request: RouteRequest, token: VerifiedToken, message: unknown): Promise<Outcome> {
  const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')
  const { createMcpServer } = await import('../mcp/server.js')
  const { deps } = request
  const ctx: OperationContext = {
    brain: async () => ({ db: deps.db, config: deps.config }),
    logger: deps.logger,
    dryRun: false,
    remote: true,
    scopes: token.scopes,
    remoteSlugPrefixes: deps.config.http.remoteSlugPrefixes,
  }
  let toolError: string | null = null
  const server = await createMcpServer(ctx, { version: deps.version, onToolCall: (_name, outcome) => (toolError = outcome.errorCode) })
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    // Any client may post plain JSON: the answer is always application/json, never a stream.
    const headers = new Headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' })
    const version = request.req.headers['mcp-protocol-version']
    if (typeof version === 'string') headers.set('mcp-protocol-version', version)
    const webRequest = new Request(`http://localhost${request.url.pathname}`, { method: 'POST', headers, body: '{}' })
    const response = await transport.handleRequest(webRequest, { parsedBody: message })
    const text = await response.text()
    const out: Record<string, string> = { 'Content-Type': response.headers.get('content-type') ?? 'application/json' }
    request.res.writeHead(response.status, { ...out, 'Content-Length': String(Buffer.byteLength(text)) })
    request.res.end(text)
    return { status: response.status, errorCode: toolError ?? (response.status >= 400 ? `http_${response.status}` : null) }
  } finally {
    await transport.close()
    await server.close()
  }
}

/** The MCP request pipeline, in the spec's order; returns what the audit row records. */
async function pipeline(request: RouteRequest, audit: Partial<AuditRow>): Promise<Outcome> {
  const { deps, req } = request
  const byIp = deps.ipBuckets.take(request.clientIp)
  if (!byIp.allowed) return rateLimited(request, byIp.retryAfterSeconds, 'rate_limited_ip')
  const body = await readBodyCapped(req, deps.config.http.maxBodyBytes)
  if (!body.ok) {
    if (body.reason === 'aborted') return { status: 499, errorCode: 'client_aborted' }
    sendJson(request.res, 413, { error: 'body_too_large', max_bytes: deps.config.http.maxBodyBytes }, { Connection: 'close' })
    return { status: 413, errorCode: 'body_too_large' }
  }
  const bearer = await verifyBearer(deps.db, req.headers.authorization)
  if (!bearer.ok) return unauthorized(request, bearer.reason)
  audit.tokenId = bearer.token.tokenId
  const byToken = deps.tokenBuckets.take(String(bearer.token.tokenId))
  if (!byToken.allowed) return rateLimited(request, byToken.retryAfterSeconds, 'rate_limited_token')
  let message: unknown
  try {
    message = JSON.parse(body.body.toString('utf8'))
  } catch {
    sendJson(request.res, 400, { jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error: the body is not valid JSON' } })
    return { status: 400, errorCode: 'parse_error' }
  }
  Object.assign(audit, describeCall(message))
  return dispatch(request, bearer.token, message)
}

/** `POST /mcp`: MCP over HTTP behind rate limits, the body cap and bearer tokens. */
export const mcpRoute: Route = {
  method: 'POST',
  path: '/mcp',
  async handle(request) {
    const started = performance.now()
    const audit: Partial<AuditRow> = { tokenId: null, method: null, toolName: null }
    let outcome: Outcome
    try {
      outcome = await pipeline(request, audit)
    } catch (err) {
      request.deps.logger.error('mcp request failed', { error: err instanceof Error ? err.message : String(err) })
      sendJson(request.res, 503, { error: 'unavailable', hint: 'The database did not answer; try again shortly.' })
      outcome = { status: 503, errorCode: 'unavailable' }
    }
    await writeAudit(
      request.deps.db,
      {
        tokenId: audit.tokenId ?? null,
        clientIp: request.clientIp,
        route: '/mcp',
        method: audit.method ?? null,
        toolName: audit.toolName ?? null,
        status: outcome.status,
        errorCode: outcome.errorCode,
        durationMs: performance.now() - started,
      },
      request.deps.logger,
    )
  },
}
