import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js'
import { OAuthError, parseScopeParam, registerClient, type ClientAuthMethod, type GrantType } from '../oauth/index.js'
import { auditOAuth, readOAuthBody, sendOAuthJson, takeIpBucket } from './oauth-common.js'
import { DEFAULT_CLIENT_SCOPES } from './oauth-metadata.js'
import type { Route, RouteRequest } from './types.js'

const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post']
const GRANTS: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials']

interface Registered {
  status: number
  body: Record<string, unknown>
  clientId: string | null
}

/**
 * RFC 7591 registration of one client. Dynamic clients may hold read and write at most; admin is
 * given only to clients registered by the owner with `brain auth clients register`.
 */
async function register(request: RouteRequest): Promise<Registered> {
  let json: unknown
  try {
    json = JSON.parse((await readOAuthBody(request)).toString('utf8'))
  } catch (err) {
    if (err instanceof OAuthError) throw err
    throw new OAuthError('invalid_client_metadata', 'The body is not JSON.')
  }
  const parsed = OAuthClientMetadataSchema.safeParse(json)
  if (!parsed.success) {
    const redirectProblem = parsed.error.issues.some((issue) => issue.path[0] === 'redirect_uris')
    throw new OAuthError(redirectProblem ? 'invalid_redirect_uri' : 'invalid_client_metadata', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))
  }
  const metadata = parsed.data
  const authMethod = (metadata.token_endpoint_auth_method ?? 'client_secret_basic') as ClientAuthMethod
  if (!AUTH_METHODS.includes(authMethod))
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method ${authMethod} is not supported; use none, client_secret_basic or client_secret_post.`)
  const grantTypes = (metadata.grant_types ?? ['authorization_code', 'refresh_token']) as GrantType[]
  const unknownGrant = grantTypes.find((g) => !GRANTS.includes(g))
  if (unknownGrant) throw new OAuthError('invalid_client_metadata', `grant type ${unknownGrant} is not supported.`)
  if (metadata.response_types && metadata.response_types.some((r) => r !== 'code')) throw new OAuthError('invalid_client_metadata', 'Only the response type code is supported.')
  const scopes = parseScopeParam(metadata.scope) ?? [...DEFAULT_CLIENT_SCOPES]
  if (scopes.includes('admin')) throw new OAuthError('invalid_client_metadata', 'The admin scope is not given to dynamically registered clients; ask the owner to run `brain auth clients register`.')
  const { client, clientSecret } = await registerClient(request.deps.db, {
    name: metadata.client_name ?? 'unnamed client',
    redirectUris: metadata.redirect_uris.map(String),
    scopes,
    grantTypes,
    authMethod,
    registeredBy: 'dynamic',
  })
  return {
    status: 201,
    clientId: client.clientId,
    body: {
      client_id: client.clientId,
      ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: client.grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: client.authMethod,
      scope: client.scopes.join(' '),
    },
  }
}

/** `POST /register`: dynamic client registration, unless the owner switched it off. */
export const registerRoute: Route = {
  method: 'POST',
  path: '/register',
  audited: true,
  async handle(request) {
    const started = performance.now()
    let outcome: Registered
    let headers: Record<string, string> = {}
    const byIp = takeIpBucket(request)
    try {
      if (!byIp.allowed) {
        request.req.resume()
        headers = { 'Retry-After': String(byIp.retryAfterSeconds) }
        outcome = { status: 429, clientId: null, body: { error: 'rate_limited', retry_after_seconds: byIp.retryAfterSeconds } }
      } else if (!request.deps.config.http.oauth.registration) {
        request.req.resume()
        outcome = {
          status: 403,
          clientId: null,
          body: { error: 'registration_disabled', error_description: 'Dynamic client registration is switched off on this brain; ask its owner for a client id (`brain auth clients register`).' },
        }
      } else {
        outcome = await register(request)
      }
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err
      outcome = { status: err.status, clientId: null, body: err.toResponse() }
    }
    const errorCode = outcome.status >= 400 ? String(outcome.body.error) : null
    await auditOAuth(request, { route: '/register', method: 'register', status: outcome.status, errorCode, oauthClientId: outcome.clientId, started })
    sendOAuthJson(request.res, outcome.status, outcome.body, headers)
  },
}
