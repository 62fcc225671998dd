import type { VerifiedToken } from '../auth/index.js'
import { verifyAnyBearer, type AnyBearerFailure } from '../oauth/index.js'
import { writeAudit, type AuditRow } from './audit.js'
import { readBodyCapped } from './body.js'
import { McpServerPool } from './mcp-servers.js'
import { sendJson } from './respond.js'
import { bearerChallenge, publicBase } from './oauth-common.js'
import type { Route, RouteRequest } from './types.js'

const PARSE_ERROR = -32700

/** What the request came to; the reply is sent after the audit row is written, so a client never sees an answer without its row. */
interface Outcome {
  status: number
  errorCode: string | null
  send: () => void
}

function reply(request: RouteRequest, status: number, body: unknown, errorCode: string | null, headers: Record<string, string> = {}): Outcome {
  return { status, errorCode, send: () => sendJson(request.res, status, body, headers) }
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

function unauthorized(request: RouteRequest, reason: AnyBearerFailure): Outcome {
  // A client that sent no credential learns where to get one; one that sent a bad one also learns it was bad.
  const challenge = bearerChallenge(request, reason === 'missing' ? {} : { error: 'invalid_token' })
  return reply(request, 401, { error: 'unauthorized', reason }, `unauthorized_${reason}`, { 'WWW-Authenticate': challenge })
}

function rateLimited(request: RouteRequest, retryAfterSeconds: number, code: string): Outcome {
  return reply(request, 429, { error: 'rate_limited', retry_after_seconds: retryAfterSeconds }, code, { 'Retry-After': String(retryAfterSeconds) })
}

const pools = new WeakMap<RouteRequest['deps'], McpServerPool>()

/** Runs the MCP server for one request on a stateless, JSON-answering transport. */
async function dispatch(request: RouteRequest, token: VerifiedToken, message: unknown): Promise<Outcome> {
  let pool = pools.get(request.deps)
  if (!pool) pools.set(request.deps, (pool = new McpServerPool(request.deps)))
  const version = request.req.headers['mcp-protocol-version']
  const answer = await pool.answer(token, message, typeof version === 'string' ? version : undefined)
  const headers = { 'Content-Type': answer.contentType, 'Content-Length': String(Buffer.byteLength(answer.text)) }
  return {
    status: answer.status,
    errorCode: answer.toolError ?? (answer.status >= 400 ? `http_${answer.status}` : null),
    send: () => {
      request.res.writeHead(answer.status, headers)
      request.res.end(answer.text)
    },
  }
}

/** The MCP request pipeline, in the spec's order; returns what the audit row records. */
async function pipeline(request: RouteRequest, audit: Partial<AuditRow>): Promise<Outcome> {
  const { deps, req } = request
  const byIp = deps.ipBuckets.take(request.clientIp)
  if (!byIp.allowed) return rateLimited(request, byIp.retryAfterSeconds, 'rate_limited_ip')
  const body = await readBodyCapped(req, deps.config.http.maxBodyBytes)
  if (!body.ok) {
    if (body.reason === 'aborted') return { status: 499, errorCode: 'client_aborted', send: () => request.res.destroy() }
    // The rest of the body is drained, not cut off: closing while the client still sends would
    // reset the connection and lose this answer on the client's side.
    return reply(request, 413, { error: 'body_too_large', max_bytes: deps.config.http.maxBodyBytes }, 'body_too_large')
  }
  const bearer = await verifyAnyBearer(deps.db, req.headers.authorization, publicBase(request))
  if (!bearer.ok) return unauthorized(request, bearer.reason)
  audit.tokenId = bearer.token.tokenId
  audit.oauthClientId = bearer.token.oauthClientId
  const byToken = deps.tokenBuckets.take(bearer.token.rateKey)
  if (!byToken.allowed) return rateLimited(request, byToken.retryAfterSeconds, 'rate_limited_token')
  let message: unknown
  try {
    message = JSON.parse(body.body.toString('utf8'))
  } catch {
    return reply(request, 400, { jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: 'Parse error: the body is not valid JSON' } }, 'parse_error')
  }
  Object.assign(audit, describeCall(message))
  return dispatch(request, bearer.token, message)
}

/** `POST /mcp`: MCP over HTTP behind rate limits, the body cap and bearer tokens. */
export const mcpRoute: Route = {
  method: 'POST',
  path: '/mcp',
  audited: true,
  async handle(request) {
    const started = performance.now()
    const audit: Partial<AuditRow> = { tokenId: null, method: null, toolName: null, oauthClientId: null }
    let outcome: Outcome
    try {
      outcome = await pipeline(request, audit)
    } catch (err) {
      request.deps.logger.error('mcp request failed', { error: err instanceof Error ? err.message : String(err) })
      outcome = reply(request, 503, { error: 'unavailable', hint: 'The database did not answer; try again shortly.' }, 'unavailable')
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
        oauthClientId: audit.oauthClientId ?? null,
      },
      request.deps.logger,
    )
    outcome.send()
  },
}
