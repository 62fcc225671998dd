import type { Database, SqlExecutor } from '../db/index.js'
import { NotFoundError, UsageError } from '../errors/index.js'
import type { TokenScope } from '../auth/index.js'
import { OAuthError } from './errors.js'
import { PREFIX, randomValue, safeEqual, sha256Hex } from './secrets.js'

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials'
export const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials']
export type ClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post'

/** A registered client as listed: never its secret, never the secret's hash. */
export interface OAuthClient {
  clientId: string
  name: string
  redirectUris: string[]
  scopes: TokenScope[]
  grantTypes: GrantType[]
  authMethod: ClientAuthMethod
  registeredBy: 'dynamic' | 'cli'
  createdAt: Date
  revokedAt: Date | null
}

interface ClientRow {
  client_id: string
  secret_hash: string | null
  name: string
  redirect_uris: string[]
  scopes: string[]
  grant_types: string[]
  auth_method: string
  registered_by: string
  created_at: Date
  revoked_at: Date | null
}

const COLUMNS = 'client_id, secret_hash, name, redirect_uris, scopes, grant_types, auth_method, registered_by, created_at, revoked_at'

function toClient(row: ClientRow): OAuthClient {
  return {
    clientId: row.client_id,
    name: row.name,
    redirectUris: row.redirect_uris,
    scopes: row.scopes as TokenScope[],
    grantTypes: row.grant_types as GrantType[],
    authMethod: row.auth_method as ClientAuthMethod,
    registeredBy: row.registered_by as OAuthClient['registeredBy'],
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

/**
 * A redirect URI a client may register: https anywhere, or http on a loopback address (a
 * desktop or CLI client listening on a local port). No fragments, no credentials.
 */
export function checkRedirectUri(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `${uri} is not an absolute URL`
  }
  if (url.hash !== '' || uri.includes('#')) return `${uri} has a fragment`
  if (url.username !== '' || url.password !== '') return `${uri} carries credentials`
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null
  return `${uri} is neither https nor a loopback http address`
}

/**
 * Whether a redirect URI of an authorization request is one the client registered. Exact match,
 * except that a loopback http URI may use any port (RFC 8252 §7.3): a native app gets whatever
 * port is free when it listens.
 */
export function redirectUriAllowed(registered: readonly string[], asked: string): boolean {
  if (registered.includes(asked)) return true
  let url: URL
  try {
    url = new URL(asked)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false
  return registered.some((uri) => {
    const candidate = new URL(uri)
    candidate.port = url.port
    return candidate.protocol === 'http:' && LOOPBACK_HOSTS.has(candidate.hostname) && candidate.toString() === url.toString()
  })
}

export interface RegisterClientInput {
  name: string
  redirectUris: string[]
  scopes: TokenScope[]
  grantTypes: GrantType[]
  /** A confidential client gets a secret (shown once); a public one authenticates by PKCE alone. */
  authMethod: ClientAuthMethod
  registeredBy: OAuthClient['registeredBy']
}

/** Registers a client; the secret, when there is one, is returned once and only its hash is stored. */
export async function registerClient(db: SqlExecutor, input: RegisterClientInput): Promise<{ client: OAuthClient; clientSecret: string | null }> {
  const name = input.name.trim().slice(0, 200)
  if (name === '') throw new OAuthError('invalid_client_metadata', 'The client needs a name.')
  for (const uri of input.redirectUris) {
    const problem = checkRedirectUri(uri)
    if (problem) throw new OAuthError('invalid_redirect_uri', problem)
  }
  if (input.grantTypes.length === 0) throw new OAuthError('invalid_client_metadata', 'The client needs at least one grant type.')
  if (input.grantTypes.includes('authorization_code') && input.redirectUris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'A client of the authorization code flow needs at least one redirect URI.')
  }
  if (input.grantTypes.includes('client_credentials') && input.authMethod === 'none') {
    throw new OAuthError('invalid_client_metadata', 'client_credentials needs a confidential client (token_endpoint_auth_method client_secret_basic or client_secret_post).')
  }
  const clientId = randomValue(PREFIX.client, 16)
  const clientSecret = input.authMethod === 'none' ? null : randomValue(PREFIX.clientSecret)
  const { rows } = await db.query<ClientRow>(
    `INSERT INTO oauth_clients (client_id, secret_hash, name, redirect_uris, scopes, grant_types, auth_method, registered_by)
     VALUES ($1, $2, $3, $4::text[], $5::text[], $6::text[], $7, $8) RETURNING ${COLUMNS}`,
    [clientId, clientSecret === null ? null : sha256Hex(clientSecret), name, input.redirectUris, input.scopes, input.grantTypes, input.authMethod, input.registeredBy],
  )
  return { client: toClient(rows[0]!), clientSecret }
}

export async function listClients(db: Database): Promise<OAuthClient[]> {
  const { rows } = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM oauth_clients ORDER BY created_at, client_id`)
  return rows.map(toClient)
}

export async function findClient(db: SqlExecutor, clientId: string): Promise<OAuthClient | null> {
  const { rows } = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1`, [clientId], { prepared: true })
  return rows[0] ? toClient(rows[0]) : null
}

/** Revokes a client and every token it holds; revoking twice keeps the first time. */
export async function revokeClient(db: Database, clientId: string): Promise<OAuthClient> {
  const id = clientId.trim()
  if (id === '') throw new UsageError('invalid_client_id', 'Give the client id to revoke.', { hint: 'List clients with `brain auth clients list`.' })
  const { rows } = await db.query<ClientRow>(`UPDATE oauth_clients SET revoked_at = coalesce(revoked_at, now()) WHERE client_id = $1 RETURNING ${COLUMNS}`, [id])
  if (!rows[0]) throw new NotFoundError('oauth_client_not_found', `No OAuth client ${id}.`, { hint: 'List clients with `brain auth clients list`.' })
  await db.query('UPDATE oauth_tokens SET revoked_at = now() WHERE client_id = $1 AND revoked_at IS NULL', [id])
  return toClient(rows[0])
}

/** The credentials a token or revocation request presented (RFC 6749 §2.3.1). */
export interface PresentedClient {
  clientId: string
  clientSecret: string | null
}

/**
 * Checks a client's credentials: a confidential client must present its secret, a public one
 * must present none. Every failure is the same `invalid_client`, so nothing tells a guesser
 * which part was wrong.
 */
export async function authenticateClient(db: SqlExecutor, presented: PresentedClient): Promise<OAuthClient> {
  const { rows } = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1`, [presented.clientId], { prepared: true })
  const row = rows[0]
  const refused = new OAuthError('invalid_client', 'Client authentication failed.', 401)
  if (!row || row.revoked_at !== null) throw refused
  if (row.secret_hash === null) {
    if (presented.clientSecret !== null) throw refused
  } else if (presented.clientSecret === null || !safeEqual(sha256Hex(presented.clientSecret), row.secret_hash)) {
    throw refused
  }
  return toClient(row)
}
