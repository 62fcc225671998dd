import {
  OAuthError,
  authenticateClient,
  clientCredentials,
  exchangeCode,
  parseScopeParam,
  refreshTokens,
  revokeTokenValue,
  type Issued,
  type OAuthClient,
  type PresentedClient,
  type TokenLifetimes,
} from '../oauth/index.js'
import { auditOAuth, readForm, resolveResource, sendOAuthJson, takeIpBucket } from './oauth-common.js'
import type { Route, RouteRequest } from './types.js'

/**
 * The client's credentials: HTTP Basic (each part form-encoded, RFC 6749 §2.3.1) or client_id
 * and client_secret in the body; never both.
 */
function presentedClient(request: RouteRequest, form: URLSearchParams): PresentedClient {
  const header = request.req.headers.authorization
  const basic = header ? /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header) : null
  if (basic) {
    if (form.has('client_secret')) throw new OAuthError('invalid_request', 'Use one way of client authentication, not two.')
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    if (colon < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials.', 401)
    const decode = (part: string): string => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '))
      } catch {
        throw new OAuthError('invalid_client', 'Malformed Basic credentials.', 401)
      }
    }
    const clientId = decode(decoded.slice(0, colon))
    if (form.has('client_id') && form.get('client_id') !== clientId) throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials.')
    return { clientId, clientSecret: decode(decoded.slice(colon + 1)) }
  }
  const clientId = form.get('client_id')
  if (!clientId) throw new OAuthError('invalid_client', 'The client did not identify itself.', 401)
  return { clientId, clientSecret: form.get('client_secret') }
}

interface Handled {
  status: number
  body: Record<string, unknown>
  errorCode: string | null
  clientId: string | null
  method: string | null
}

function lifetimes(request: RouteRequest): TokenLifetimes {
  const { accessTtlMs, refreshTtlMs } = request.deps.config.http.oauth
  return { accessTtlMs, refreshTtlMs }
}

async function grant(request: RouteRequest, client: OAuthClient, form: URLSearchParams): Promise<Issued> {
  const type = form.get('grant_type')
  const rawResource = form.get('resource')
  const resource = rawResource === null ? null : resolveResource(request, rawResource)
  switch (type) {
    case 'authorization_code':
      return exchangeCode(
        request.deps.db,
        client,
        { code: form.get('code') ?? undefined, redirectUri: form.get('redirect_uri') ?? undefined, codeVerifier: form.get('code_verifier') ?? undefined, resource },
        lifetimes(request),
      )
    case 'refresh_token':
      return refreshTokens(request.deps.db, client, { refreshToken: form.get('refresh_token') ?? undefined, scopes: parseScopeParam(form.get('scope')), resource }, lifetimes(request))
    case 'client_credentials':
      return clientCredentials(request.deps.db, client, parseScopeParam(form.get('scope')), resource ?? resolveResource(request, null), lifetimes(request))
    case null:
      throw new OAuthError('invalid_request', 'grant_type is required.')
    default:
      throw new OAuthError('unsupported_grant_type', `grant_type ${type} is not supported.`)
  }
}

/** Runs one request of an endpoint that authenticates its client; OAuth refusals become their JSON answer. */
async function withClient(
  request: RouteRequest,
  method: (form: URLSearchParams) => string | null,
  run: (client: OAuthClient, form: URLSearchParams) => Promise<Record<string, unknown>>,
): Promise<Handled> {
  const byIp = takeIpBucket(request)
  if (!byIp.allowed) {
    request.req.resume()
    return { status: 429, body: { error: 'rate_limited', retry_after_seconds: byIp.retryAfterSeconds }, errorCode: 'rate_limited', clientId: null, method: null }
  }
  let form: URLSearchParams | null = null
  let clientId: string | null = null
  try {
    form = await readForm(request)
    const presented = presentedClient(request, form)
    clientId = presented.clientId.slice(0, 200)
    const client = await authenticateClient(request.deps.db, presented)
    return { status: 200, body: await run(client, form), errorCode: null, clientId, method: method(form) }
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err
    return { status: err.status, body: err.toResponse(), errorCode: err.code, clientId, method: form ? method(form) : null }
  }
}

function clientRoute(
  path: string,
  method: (form: URLSearchParams) => string | null,
  run: (request: RouteRequest, client: OAuthClient, form: URLSearchParams) => Promise<Record<string, unknown>>,
): Route {
  return {
    method: 'POST',
    path,
    audited: true,
    async handle(request) {
      const started = performance.now()
      const handled = await withClient(request, method, (client, form) => run(request, client, form))
      // A refused client is recorded under the id it claimed: the column is free text, not a reference.
      await auditOAuth(request, { route: path, method: handled.method, status: handled.status, errorCode: handled.errorCode, oauthClientId: handled.clientId, started })
      const headers: Record<string, string> = handled.status === 401 ? { 'WWW-Authenticate': 'Basic realm="brain"' } : {}
      if (handled.status === 429) headers['Retry-After'] = String(handled.body.retry_after_seconds)
      sendOAuthJson(request.res, handled.status, handled.body, headers)
    },
  }
}

/**
 * `POST /token` (authorization_code with PKCE, refresh_token with rotation, client_credentials)
 * and `POST /revoke` (RFC 7009: 200 whether or not the token was known).
 */
export const tokenRoutes: readonly Route[] = [
  clientRoute(
    '/token',
    (form) => (form.get('grant_type') ?? '').slice(0, 40) || null,
    async (request, client, form) => {
      const issued = await grant(request, client, form)
      return { ...issued.response }
    },
  ),
  clientRoute(
    '/revoke',
    () => 'revoke',
    async (request, client, form) => {
      const token = form.get('token')
      if (!token) throw new OAuthError('invalid_request', 'token is required.')
      await revokeTokenValue(request.deps.db, client, token)
      return {}
    },
  ),
]
