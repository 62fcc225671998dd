/**
 * OAuth 2.1 for `serve --http` (server engine only): registered clients, authorization codes
 * bound to PKCE S256, audience-bound access tokens, rotating refresh tokens with reuse
 * detection, and revocation. Only SHA-256 hashes of secrets, codes and tokens are stored.
 * Owns the oauth_* tables; imports auth (static tokens), db and errors. The HTTP endpoints that
 * speak the protocol live in src/http.
 * May import: auth, db, errors.
 */
export { OAuthError, type OAuthErrorCode } from './errors.js'
export {
  GRANT_TYPES,
  authenticateClient,
  checkRedirectUri,
  findClient,
  listClients,
  redirectUriAllowed,
  registerClient,
  revokeClient,
  type ClientAuthMethod,
  type GrantType,
  type OAuthClient,
  type PresentedClient,
  type RegisterClientInput,
} from './clients.js'
export {
  CODE_TTL_MS,
  clientCredentials,
  createAuthorizationCode,
  exchangeCode,
  grantScopes,
  parseScopeParam,
  refreshTokens,
  revokeTokenValue,
  type Issued,
  type TokenLifetimes,
  type TokenResponse,
} from './grants.js'
export { verifyAnyBearer, type AnyBearerFailure, type AnyBearerResult } from './bearer.js'
export { isS256Challenge, safeEqual, randomValue } from './secrets.js'
