/**
 * Access tokens for the HTTP transport (server engine only). Only a SHA-256 hash of each token
 * is stored; the plain token is shown once, when it is created.
 * May import: db, errors.
 */
export {
  TOKEN_SCOPES,
  createToken,
  listTokens,
  revokeToken,
  verifyBearer,
  hasScope,
  hashToken,
  parseScopes,
  assertTokenTable,
  type TokenScope,
  type TokenInfo,
  type VerifiedToken,
  type BearerResult,
  type BearerFailure,
} from './tokens.js'
