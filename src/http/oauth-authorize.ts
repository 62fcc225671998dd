import { randomBytes } from 'node:crypto'
import { hasScope, verifyBearer, type TokenScope } from '../auth/index.js'
import { OAuthError, createAuthorizationCode, findClient, grantScopes, isS256Challenge, parseScopeParam, redirectUriAllowed, safeEqual, type OAuthClient } from '../oauth/index.js'
import { CONSENT_HEADERS, consentPage, errorPage } from './oauth-consent-page.js'
import { auditOAuth, publicBase, readForm, resolveResource, takeIpBucket } from './oauth-common.js'
import type { Route, RouteRequest } from './types.js'

const CSRF_COOKIE = 'brain_oauth_csrf'
/** The authorization request's parameters the consent form carries back. */
const CARRIED = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'scope', 'state', 'resource'] as const

/** A validated authorization request (RFC 6749 §4.1.1 with PKCE and RFC 8707). */
interface AuthorizationRequest {
  client: OAuthClient
  redirectUri: string
  codeChallenge: string
  scopes: TokenScope[]
  resource: string
  state: string | null
  params: Record<string, string>
}

/** What the endpoint answers; the audit row is written before it is sent. */
interface Answer {
  status: number
  errorCode: string | null
  clientId: string | null
  headers: Record<string, string>
  body: string
}

/** Refused before the client is known to own the redirect URI: shown to the owner, never redirected. */
class UnsafeRedirect extends Error {}

/** Refused once the redirect URI is trusted: the client hears of it at its redirect URI. */
class RedirectedRefusal extends Error {
  constructor(
    readonly refusal: OAuthError,
    readonly to: { client: OAuthClient; redirectUri: string; state: string | null },
  ) {
    super(refusal.message)
  }
}

function html(status: number, body: string, clientId: string | null, errorCode: string | null, headers: Record<string, string> = {}): Answer {
  return { status, errorCode, clientId, headers: { ...CONSENT_HEADERS, ...headers }, body }
}

function redirectTo(request: RouteRequest, redirectUri: string, params: Record<string, string | null>, clientId: string, errorCode: string | null): Answer {
  const target = new URL(redirectUri)
  for (const [name, value] of Object.entries(params)) if (value !== null) target.searchParams.set(name, value)
  // RFC 9207: the client can check which server answered.
  target.searchParams.set('iss', publicBase(request))
  return { status: 302, errorCode, clientId, headers: { Location: target.toString(), 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }, body: '' }
}

async function clientAndRedirect(request: RouteRequest, input: URLSearchParams): Promise<{ client: OAuthClient; redirectUri: string }> {
  const clientId = input.get('client_id')
  const client = clientId ? await findClient(request.deps.db, clientId) : null
  if (!client || client.revokedAt !== null) throw new UnsafeRedirect('Unknown or revoked client.')
  const asked = input.get('redirect_uri')
  const redirectUri = asked ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : null)
  if (redirectUri === null || !redirectUriAllowed(client.redirectUris, redirectUri)) throw new UnsafeRedirect('The redirect URI is not one this client registered.')
  return { client, redirectUri }
}

/** Validates an authorization request; errors after the redirect URI is trusted go back to the client. */
async function validate(request: RouteRequest, input: URLSearchParams): Promise<AuthorizationRequest> {
  const { client, redirectUri } = await clientAndRedirect(request, input)
  const base = { client, redirectUri, state: input.get('state') }
  try {
    if (input.get('response_type') !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code.')
    if (!client.grantTypes.includes('authorization_code')) throw new OAuthError('unauthorized_client', 'This client may not use the authorization code flow.')
    const codeChallenge = input.get('code_challenge') ?? undefined
    if (input.get('code_challenge_method') !== 'S256' || !isS256Challenge(codeChallenge)) {
      throw new OAuthError('invalid_request', 'PKCE is required: code_challenge with code_challenge_method S256.')
    }
    const scopes = grantScopes(parseScopeParam(input.get('scope')), client.scopes)
    const resource = resolveResource(request, input.get('resource'))
    const params: Record<string, string> = {}
    for (const name of CARRIED) {
      const value = input.get(name)
      if (value !== null) params[name] = value
    }
    return { ...base, codeChallenge, scopes, resource, params }
  } catch (err) {
    if (err instanceof OAuthError) throw new RedirectedRefusal(err, base)
    throw err
  }
}

function showConsent(request: RouteRequest, auth: AuthorizationRequest, status = 200, problem?: string): Answer {
  const csrf = randomBytes(32).toString('base64url')
  const secure = publicBase(request).startsWith('https:') ? '; Secure' : ''
  const page = consentPage({ clientName: auth.client.name, clientId: auth.client.clientId, redirectUri: auth.redirectUri, scopes: auth.scopes, params: auth.params, csrf, problem })
  return html(status, page, auth.client.clientId, status === 200 ? null : 'owner_credential_refused', {
    'Set-Cookie': `${CSRF_COOKIE}=${csrf}; Path=/authorize; HttpOnly; SameSite=Strict; Max-Age=900${secure}`,
  })
}

function csrfCookie(request: RouteRequest): string | null {
  for (const part of String(request.req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === CSRF_COOKIE) return rest.join('=')
  }
  return null
}

/** The owner's decision: the CSRF pair must match and the owner token must carry the admin scope. */
async function decide(request: RouteRequest, form: URLSearchParams): Promise<Answer> {
  const auth = await validate(request, form)
  const cookie = csrfCookie(request)
  const field = form.get('csrf')
  if (cookie === null || field === null || !safeEqual(cookie, field)) {
    return html(403, errorPage('The form expired or did not come from this server; start the sign-in again.'), auth.client.clientId, 'csrf_mismatch')
  }
  if (form.get('decision') !== 'approve') {
    return redirectTo(request, auth.redirectUri, { error: 'access_denied', error_description: 'The owner denied the request.', state: auth.state }, auth.client.clientId, 'access_denied')
  }
  const owner = await verifyBearer(request.deps.db, `Bearer ${form.get('owner_token') ?? ''}`)
  if (!owner.ok || !hasScope(owner.token, 'admin')) return showConsent(request, auth, 401, 'That owner token was not accepted: it must be a live access token with the admin scope.')
  const code = await createAuthorizationCode(request.deps.db, {
    clientId: auth.client.clientId,
    redirectUri: auth.redirectUri,
    codeChallenge: auth.codeChallenge,
    scopes: auth.scopes,
    resource: auth.resource,
  })
  return redirectTo(request, auth.redirectUri, { code, state: auth.state }, auth.client.clientId, null)
}

async function answer(request: RouteRequest): Promise<Answer> {
  const byIp = takeIpBucket(request)
  if (!byIp.allowed) {
    request.req.resume()
    return html(429, errorPage('Too many requests; wait a moment.'), null, 'rate_limited', { 'Retry-After': String(byIp.retryAfterSeconds) })
  }
  try {
    if (request.req.method === 'POST') return await decide(request, await readForm(request))
    return showConsent(request, await validate(request, request.url.searchParams))
  } catch (err) {
    if (err instanceof UnsafeRedirect) return html(400, errorPage(err.message), null, 'invalid_client_or_redirect')
    if (err instanceof RedirectedRefusal) {
      const { refusal, to } = err
      return redirectTo(request, to.redirectUri, { error: refusal.code, error_description: refusal.message, state: to.state }, to.client.clientId, refusal.code)
    }
    if (err instanceof OAuthError) return html(err.status, errorPage(err.message), null, err.code)
    throw err
  }
}

function authorizeRoute(method: 'GET' | 'POST'): Route {
  return {
    method,
    path: '/authorize',
    audited: true,
    async handle(request) {
      const started = performance.now()
      const result = await answer(request)
      await auditOAuth(request, {
        route: '/authorize',
        method: method === 'GET' ? 'consent_page' : 'consent',
        status: result.status,
        errorCode: result.errorCode,
        oauthClientId: result.clientId,
        started,
      })
      request.res.writeHead(result.status, { ...result.headers, 'Content-Length': String(Buffer.byteLength(result.body)) })
      request.res.end(result.body)
    },
  }
}

/** `GET /authorize` shows the consent page; `POST /authorize` is the owner's answer. */
export const authorizeRoutes: readonly Route[] = [authorizeRoute('GET'), authorizeRoute('POST')]
