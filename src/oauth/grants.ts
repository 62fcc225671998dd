import type { SqlExecutor } from '../db/index.js'
import { TOKEN_SCOPES, type TokenScope } from '../auth/index.js'
import type { OAuthClient } from './clients.js'
import { OAuthError } from './errors.js'
import { PREFIX, randomValue, sha256Hex, verifierMatches } from './secrets.js'

/** An authorization code lives this long: long enough for a redirect and one token request. */
export const CODE_TTL_MS = 60_000

export interface TokenLifetimes {
  accessTtlMs: number
  refreshTtlMs: number
}

/** The body of a successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  scope: string
  refresh_token?: string
}

/** What an issuance was, for the audit row. */
export interface Issued {
  response: TokenResponse
  familyId: string
}

/** Parses a space-separated scope parameter; unknown scopes are refused, not dropped. */
export function parseScopeParam(raw: string | undefined | null): TokenScope[] | null {
  if (raw === undefined || raw === null || raw.trim() === '') return null
  const scopes = [...new Set(raw.trim().split(/\s+/))]
  const unknown = scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s))
  if (unknown.length > 0) throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(' ')}; this server knows read, write and admin.`)
  return scopes as TokenScope[]
}

/** The scopes granted: the ones asked for, each of which the client must hold; none asked: all it holds. */
export function grantScopes(requested: TokenScope[] | null, allowed: readonly TokenScope[]): TokenScope[] {
  if (requested === null) return [...allowed]
  const beyond = requested.filter((s) => !allowed.includes(s))
  if (beyond.length > 0) throw new OAuthError('invalid_scope', `Scope ${beyond.join(' ')} was not granted to this client.`)
  return requested
}

interface CodeInput {
  clientId: string
  redirectUri: string
  codeChallenge: string
  scopes: TokenScope[]
  resource: string
}

export async function createAuthorizationCode(db: SqlExecutor, input: CodeInput): Promise<string> {
  const code = randomValue(PREFIX.code)
  await db.query(
    `INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, code_challenge, scopes, resource, expires_at)
     VALUES ($1, $2, $3, $4, $5::text[], $6, now() + $7 * interval '1 millisecond')`,
    [sha256Hex(code), input.clientId, input.redirectUri, input.codeChallenge, input.scopes, input.resource, CODE_TTL_MS],
  )
  return code
}

/** Expired codes and tokens are kept a day (for reuse detection and the audit trail), then dropped. */
const KEEP_EXPIRED = "interval '1 day'"

async function pruneExpired(db: SqlExecutor): Promise<void> {
  await db.query(`DELETE FROM oauth_codes WHERE expires_at < now() - ${KEEP_EXPIRED}`)
  await db.query(`DELETE FROM oauth_tokens WHERE expires_at < now() - ${KEEP_EXPIRED}`)
}

async function mint(db: SqlExecutor, client: OAuthClient, scopes: TokenScope[], resource: string, familyId: string, lifetimes: TokenLifetimes, withRefresh: boolean): Promise<TokenResponse> {
  await pruneExpired(db)
  const access = randomValue(PREFIX.access)
  const refresh = withRefresh ? randomValue(PREFIX.refresh) : null
  const kinds = ['access', ...(refresh ? ['refresh'] : [])]
  await db.query(
    `INSERT INTO oauth_tokens (token_hash, kind, client_id, scopes, resource, family_id, expires_at)
     SELECT h, k, $3, $4::text[], $5, $6, now() + ttl * interval '1 millisecond'
       FROM unnest($1::text[], $2::text[], $7::bigint[]) AS t(h, k, ttl)`,
    [[sha256Hex(access), ...(refresh ? [sha256Hex(refresh)] : [])], kinds, client.clientId, scopes, resource, familyId, [lifetimes.accessTtlMs, ...(refresh ? [lifetimes.refreshTtlMs] : [])]],
  )
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: Math.round(lifetimes.accessTtlMs / 1000),
    scope: scopes.join(' '),
    ...(refresh ? { refresh_token: refresh } : {}),
  }
}

async function revokeFamily(db: SqlExecutor, familyId: string | null): Promise<void> {
  if (familyId === null) return
  await db.query('UPDATE oauth_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [familyId])
}

interface CodeRow {
  client_id: string
  redirect_uri: string
  code_challenge: string
  scopes: string[]
  resource: string
  expired: boolean
  used_at: Date | null
  family_id: string | null
}

interface CodeExchange {
  code: string | undefined
  redirectUri: string | undefined
  codeVerifier: string | undefined
  /** The resource asked for at the token endpoint, when the client sent one. */
  resource: string | null
}

/**
 * Exchanges an authorization code. The code is spent by the first attempt whatever its outcome,
 * so a stolen code cannot be tried against verifiers; a code presented a second time revokes
 * what the first exchange issued (RFC 6749 §4.1.2).
 */
export async function exchangeCode(db: SqlExecutor, client: OAuthClient, input: CodeExchange, lifetimes: TokenLifetimes): Promise<Issued> {
  if (!client.grantTypes.includes('authorization_code')) throw new OAuthError('unauthorized_client', 'This client may not use the authorization code grant.')
  if (!input.code) throw new OAuthError('invalid_request', 'code is required.')
  const familyId = randomValue('', 16)
  const { rows } = await db.query<CodeRow>(
    `WITH spent AS (
       UPDATE oauth_codes SET used_at = now(), family_id = $2 WHERE code_hash = $1 AND used_at IS NULL
       RETURNING client_id, redirect_uri, code_challenge, scopes, resource, expires_at <= now() AS expired, NULL::timestamptz AS used_at, family_id)
     SELECT * FROM spent
     UNION ALL
     SELECT client_id, redirect_uri, code_challenge, scopes, resource, expires_at <= now(), used_at, family_id
       FROM oauth_codes WHERE code_hash = $1 AND NOT EXISTS (SELECT 1 FROM spent)`,
    [sha256Hex(input.code), familyId],
  )
  const row = rows[0]
  if (!row) throw new OAuthError('invalid_grant', 'Unknown authorization code.')
  if (row.used_at !== null) {
    await revokeFamily(db, row.family_id)
    throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens issued for it are revoked.')
  }
  if (row.client_id !== client.clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.')
  if (row.expired) throw new OAuthError('invalid_grant', 'The authorization code has expired.')
  if (input.redirectUri !== row.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request.')
  if (!verifierMatches(input.codeVerifier, row.code_challenge)) throw new OAuthError('invalid_grant', 'The PKCE code_verifier is missing or does not match the code_challenge.')
  if (input.resource !== null && input.resource !== row.resource) throw new OAuthError('invalid_target', 'resource differs from the one the code was issued for.')
  const response = await mint(db, client, row.scopes as TokenScope[], row.resource, familyId, lifetimes, client.grantTypes.includes('refresh_token'))
  return { response, familyId }
}

interface RefreshRow {
  client_id: string
  scopes: string[]
  resource: string
  family_id: string
  expired: boolean
  revoked: boolean
  reused: boolean
}

interface RefreshInput {
  refreshToken: string | undefined
  scopes: TokenScope[] | null
  resource: string | null
}

/**
 * Rotates a refresh token: the presented one is spent and a new pair is issued in the same
 * family. Presenting a spent refresh token again is reuse: the whole family is revoked, the
 * thief's copy and the rightful client's alike (OAuth 2.1 §4.3.1).
 */
export async function refreshTokens(db: SqlExecutor, client: OAuthClient, input: RefreshInput, lifetimes: TokenLifetimes): Promise<Issued> {
  if (!client.grantTypes.includes('refresh_token')) throw new OAuthError('unauthorized_client', 'This client may not use refresh tokens.')
  if (!input.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required.')
  const { rows } = await db.query<RefreshRow>(
    `WITH found AS (SELECT id, client_id, scopes, resource, family_id, expires_at <= now() AS expired, revoked_at IS NOT NULL AS revoked, used_at IS NOT NULL AS reused
                      FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh'),
     spent AS (UPDATE oauth_tokens t SET used_at = now() FROM found
                WHERE t.id = found.id AND t.used_at IS NULL AND t.client_id = $2 RETURNING t.id)
     SELECT client_id, scopes, resource, family_id, expired, revoked,
            reused OR NOT EXISTS (SELECT 1 FROM spent) AND client_id = $2 AS reused
       FROM found`,
    [sha256Hex(input.refreshToken), client.clientId],
  )
  const row = rows[0]
  if (!row || row.client_id !== client.clientId) throw new OAuthError('invalid_grant', 'Unknown refresh token.')
  if (row.reused) {
    await revokeFamily(db, row.family_id)
    throw new OAuthError('invalid_grant', 'The refresh token was already used; every token of its grant is now revoked.')
  }
  if (row.revoked) throw new OAuthError('invalid_grant', 'The refresh token was revoked.')
  if (row.expired) throw new OAuthError('invalid_grant', 'The refresh token has expired.')
  if (input.resource !== null && input.resource !== row.resource) throw new OAuthError('invalid_target', 'resource differs from the one the grant was issued for.')
  // Narrowing is allowed on refresh, widening never (RFC 6749 §6); the client may have lost scopes since.
  const scopes = grantScopes(
    input.scopes,
    (row.scopes as TokenScope[]).filter((s) => client.scopes.includes(s)),
  )
  const response = await mint(db, client, scopes, row.resource, row.family_id, lifetimes, true)
  return { response, familyId: row.family_id }
}

/** `client_credentials`: a machine client gets an access token (no refresh token) for its own scopes. */
export async function clientCredentials(db: SqlExecutor, client: OAuthClient, scopes: TokenScope[] | null, resource: string, lifetimes: TokenLifetimes): Promise<Issued> {
  if (client.authMethod === 'none' || !client.grantTypes.includes('client_credentials')) {
    throw new OAuthError('unauthorized_client', 'This client may not use the client_credentials grant.')
  }
  const familyId = randomValue('', 16)
  const response = await mint(db, client, grantScopes(scopes, client.scopes), resource, familyId, lifetimes, false)
  return { response, familyId }
}

/**
 * RFC 7009: revokes a token the client holds. A refresh token takes its whole family with it;
 * an unknown token, or another client's, is ignored (the answer is the same 200).
 */
export async function revokeTokenValue(db: SqlExecutor, client: OAuthClient, token: string): Promise<boolean> {
  const { rows } = await db.query<{ kind: string; family_id: string }>(
    `UPDATE oauth_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_hash = $1 AND client_id = $2 RETURNING kind, family_id`,
    [sha256Hex(token), client.clientId],
  )
  const row = rows[0]
  if (!row) return false
  if (row.kind === 'refresh') await revokeFamily(db, row.family_id)
  return true
}
