import { TOKEN_SCOPES } from '../auth/index.js'
import { publicBase } from './oauth-common.js'
import { sendJson } from './respond.js'
import type { Route, RouteRequest } from './types.js'

/** Scopes a client asks for when it asks for nothing in particular: admin is never implied. */
export const DEFAULT_CLIENT_SCOPES = ['read', 'write'] as const

/** RFC 9728: what the brain protects and who issues its tokens (itself). */
function protectedResourceMetadata(request: RouteRequest): Record<string, unknown> {
  const base = publicBase(request)
  return {
    resource: base,
    authorization_servers: [base],
    scopes_supported: [...DEFAULT_CLIENT_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'brain',
  }
}

/** RFC 8414: the authorization server's endpoints and what they support. */
function authorizationServerMetadata(request: RouteRequest): Record<string, unknown> {
  const base = publicBase(request)
  return {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    ...(request.deps.config.http.oauth.registration ? { registration_endpoint: `${base}/register` } : {}),
    revocation_endpoint: `${base}/revoke`,
    scopes_supported: [...TOKEN_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    authorization_response_iss_parameter_supported: true,
  }
}

function metadataRoute(path: string, document: (request: RouteRequest) => Record<string, unknown>): Route {
  return {
    method: 'GET',
    path,
    publicCors: true,
    async handle(request) {
      sendJson(request.res, 200, document(request), { 'Cache-Control': 'max-age=300' })
    },
  }
}

/**
 * The discovery documents. The protected-resource document is also served at its path-aware
 * address for `/mcp` (RFC 9728 §3.1), which clients try first.
 */
export const oauthMetadataRoutes: readonly Route[] = [
  metadataRoute('/.well-known/oauth-protected-resource', protectedResourceMetadata),
  metadataRoute('/.well-known/oauth-protected-resource/mcp', protectedResourceMetadata),
  metadataRoute('/.well-known/oauth-authorization-server', authorizationServerMetadata),
]
