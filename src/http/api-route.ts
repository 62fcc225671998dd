import type { VerifiedToken } from '../auth/index.js'
import { dispatchTool, listTools } from '../mcp/index.js'
import type { CallContext } from '../operations/index.js'
import { OPERATIONS } from '../operations/catalogue.js'
import { verifyAnyBearer } from '../oauth/index.js'
import { writeAudit } from './audit.js'
import type { AdminFeed } from './admin-feed.js'
import { apiEventsRoute } from './api-events.js'
import { readBodyCapped } from './body.js'
import { bearerChallenge, publicBase } from './oauth-common.js'
import { sessionCookie } from './ui-sessions.js'
import { sendJson } from './respond.js'
import type { Route, RouteRequest } from './types.js'

/**
 * The JSON API: `POST /api/<operation>` for every operation of the catalogue, its body the
 * operation's arguments (the MCP tool's input), its answer the tool's JSON or the error envelope
 * `{error: {class, code, message, hint}}` with an HTTP status; `GET /api` lists the operations.
 * Same tokens, scopes, rate limits, body cap and request log as `/mcp`: one operation, one code
 * path, whichever surface calls it.
 */

interface Outcome {
  status: number
  errorCode: string | null
  tokenId: number | null
  oauthClientId?: string | null
  body: unknown
  headers?: Record<string, string>
}

/** The HTTP status of a failed operation, by its error class. */
const STATUS_BY_CLASS: Record<string, number> = {
  UsageError: 400,
  ValidationError: 400,
  ConfigError: 400,
  AuthError: 403,
  NotFoundError: 404,
  ConfirmationRequired: 409,
  ConflictError: 409,
  LockError: 409,
  NotAvailableError: 503,
  DatabaseError: 503,
  DiskError: 507,
}

function contextFor(request: RouteRequest, token: VerifiedToken): CallContext {
  const { deps } = request
  return {
    brain: async () => ({ db: deps.db, config: deps.config }),
    logger: deps.logger,
    dryRun: false,
    remote: true,
    scopes: token.scopes,
    remoteSlugPrefixes: deps.config.http.remoteSlugPrefixes,
    caller: token.name,
    sourceLimit: token.sourceId ?? null,
  }
}

/** The local web app's owner, signed in with the link `brain ui` printed: every scope. */
const UI_OWNER: VerifiedToken = { tokenId: null, oauthClientId: null, name: 'web', scopes: ['read', 'write', 'admin'], rateKey: 'ui' }

async function authorize(request: RouteRequest): Promise<VerifiedToken | Outcome> {
  const { deps, req } = request
  const byIp = deps.ipBuckets.take(request.clientIp)
  if (!byIp.allowed) return { status: 429, errorCode: 'rate_limited_ip', tokenId: null, body: { error: rateLimited() }, headers: { 'Retry-After': String(byIp.retryAfterSeconds) } }
  if (deps.uiSessions) {
    // The cookie is SameSite=Strict and CORS admits only this origin, so no other site can
    // make a browser send a request that carries it.
    if (deps.uiSessions.valid(sessionCookie(req.headers.cookie))) return UI_OWNER
    const body = { error: { class: 'AuthError', code: 'unauthorized', message: 'Not signed in.', hint: 'Run `brain ui` and open the link it prints.' } }
    return { status: 401, errorCode: 'unauthorized_session', tokenId: null, body }
  }
  const bearer = await verifyAnyBearer(deps.db, req.headers.authorization, publicBase(request))
  if (!bearer.ok) {
    const body = {
      error: {
        class: 'AuthError',
        code: 'unauthorized',
        message: `No valid access token (${bearer.reason}).`,
        hint: 'Send Authorization: Bearer <token>; create one with `brain auth create <name>`.',
      },
    }
    return { status: 401, errorCode: `unauthorized_${bearer.reason}`, tokenId: null, body, headers: { 'WWW-Authenticate': bearerChallenge(request) } }
  }
  const byToken = deps.tokenBuckets.take(bearer.token.rateKey)
  if (!byToken.allowed)
    return { status: 429, errorCode: 'rate_limited_token', tokenId: bearer.token.tokenId, body: { error: rateLimited() }, headers: { 'Retry-After': String(byToken.retryAfterSeconds) } }
  return bearer.token
}

function rateLimited() {
  return { class: 'RateLimitError', code: 'rate_limited', message: 'Too many requests.', hint: 'Wait for the number of seconds in Retry-After.' }
}

async function call(request: RouteRequest, name: string): Promise<Outcome> {
  const { deps, req } = request
  const token = await authorize(request)
  if (!('scopes' in token)) {
    req.resume()
    return token
  }
  if (deps.uiSessions && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    // A cross-site form can only send simple content types; a JSON body needs a preflight
    // that CORS refuses, so requiring it closes the last CSRF path on top of SameSite=Strict.
    req.resume()
    const refused = { class: 'UsageError', code: 'json_required', message: 'Send the arguments as application/json.', hint: 'The web app does; other pages cannot.' }
    return { status: 415, errorCode: 'json_required', tokenId: token.tokenId, body: { error: refused } }
  }
  const body = await readBodyCapped(req, deps.config.http.maxBodyBytes)
  if (!body.ok) {
    const tooLarge = {
      class: 'UsageError',
      code: 'body_too_large',
      message: `The body is over ${deps.config.http.maxBodyBytes} bytes.`,
      hint: 'Send less, or raise BRAIN_HTTP_MAX_BODY_BYTES on the server.',
    }
    return body.reason === 'aborted'
      ? { status: 499, errorCode: 'client_aborted', tokenId: token.tokenId, body: null }
      : { status: 413, errorCode: 'body_too_large', tokenId: token.tokenId, body: { error: tooLarge } }
  }
  let args: unknown = {}
  if (body.body.length > 0) {
    try {
      args = JSON.parse(body.body.toString('utf8'))
    } catch {
      const invalid = { class: 'UsageError', code: 'invalid_json', message: 'The body is not valid JSON.', hint: `Send the arguments of ${name} as a JSON object.` }
      return { status: 400, errorCode: 'invalid_json', tokenId: token.tokenId, body: { error: invalid } }
    }
  }
  const outcome = await dispatchTool(contextFor(request, token), name, args)
  const result = outcome.result.structuredContent
  const who = { tokenId: token.tokenId, oauthClientId: token.oauthClientId }
  if (!outcome.result.isError) return { status: 200, errorCode: null, ...who, body: result }
  const errorClass = String((result.error as { class?: unknown } | undefined)?.class ?? '')
  return { status: STATUS_BY_CLASS[errorClass] ?? 500, errorCode: outcome.errorCode, ...who, body: result }
}

async function answer(request: RouteRequest, route: string, toolName: string | null, run: () => Promise<Outcome>): Promise<void> {
  const started = performance.now()
  let outcome: Outcome
  try {
    outcome = await run()
  } catch (err) {
    request.deps.logger.error('api request failed', { route, error: err instanceof Error ? err.message : String(err) })
    const unavailable = { class: 'DatabaseError', code: 'unavailable', message: 'The brain did not answer.', hint: 'Try again shortly.' }
    outcome = { status: 503, errorCode: 'unavailable', tokenId: null, body: { error: unavailable } }
  }
  const row = {
    tokenId: outcome.tokenId,
    oauthClientId: outcome.oauthClientId ?? null,
    clientIp: request.clientIp,
    route,
    method: request.req.method ?? null,
    toolName,
    status: outcome.status,
    errorCode: outcome.errorCode,
    durationMs: performance.now() - started,
  }
  if (!request.deps.uiSessions) await writeAudit(request.deps.db, row, request.deps.logger)
  if (outcome.status === 499) request.res.destroy()
  else sendJson(request.res, outcome.status, outcome.body, outcome.headers)
}

/** `GET /api`: the operations with their input schemas, for a client that builds its calls. */
const catalogueRoute: Route = {
  method: 'GET',
  path: '/api',
  audited: true,
  handle: (request) =>
    answer(request, '/api', null, async () => {
      const token = await authorize(request)
      if (!('scopes' in token)) return token
      const operations = listTools().map((tool) => ({
        name: tool.name,
        path: `/api/${tool.name}`,
        description: tool.description,
        input_schema: tool.inputSchema,
        mutating: !tool.annotations.readOnlyHint,
      }))
      return { status: 200, errorCode: null, tokenId: token.tokenId, body: { operations } }
    }),
}

/** One route per operation, generated from the catalogue, and the live event stream. */
export function apiRoutes(options: { feed?: AdminFeed } = {}): Route[] {
  return [
    catalogueRoute,
    apiEventsRoute(authorize, options.feed),
    ...OPERATIONS.map((operation): Route => ({
      method: 'POST',
      path: `/api/${operation.name}`,
      audited: true,
      handle: (request) => answer(request, `/api/${operation.name}`, operation.name, () => call(request, operation.name)),
    })),
  ]
}
