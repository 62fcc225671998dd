import { createHash, randomBytes } from 'node:crypto'
import type { Database, SqlExecutor } from '../db/index.js'
import { NotAvailableError, NotFoundError, UsageError, ValidationError, isSqlStateError } from '../errors/index.js'

/** `admin` opens operator surfaces such as the /admin/events feed; it grants neither read nor write. */
export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]

/** What `auth list` shows: never the token, never its hash. */
export interface TokenInfo {
  id: number
  name: string
  scopes: TokenScope[]
  /** The one source the token reaches; null for every source. */
  sourceId: string | null
  createdAt: Date
  lastUsedAt: Date | null
  revokedAt: Date | null
}

/** Tokens look like `brain_<43 base64url chars>`; the prefix makes a leaked token recognisable. */
const TOKEN_PREFIX = 'brain_'

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url')
}

/** Tokens live in a server-engine table; the embedded engine has none. */
export function assertTokenTable(db: Database): void {
  if (!db.capabilities.httpServer) {
    throw new NotAvailableError('server_engine_required', 'Access tokens exist only on the server engine; the token table is not part of the embedded brain.', {
      hint: 'Use a PostgreSQL brain: `brain init --url postgres://…` or set BRAIN_DATABASE_URL.',
    })
  }
}

export function parseScopes(raw: string | undefined): TokenScope[] {
  if (raw === undefined) return ['read', 'write']
  const scopes = raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '')
  const unknown = scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s))
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError('invalid_scopes', `Unknown scope${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ') || '(none)'}.`, {
      hint: 'Use read, write, admin, or a comma-separated list such as read,write.',
    })
  }
  return [...new Set(scopes)] as TokenScope[]
}

interface TokenRow {
  id: number
  name: string
  scopes: string[]
  source_id: string | null
  created_at: Date
  last_used_at: Date | null
  revoked_at: Date | null
}

function toInfo(row: TokenRow): TokenInfo {
  return { id: Number(row.id), name: row.name, scopes: row.scopes as TokenScope[], sourceId: row.source_id ?? null, createdAt: row.created_at, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at }
}

/** Creates a token; the plain token is returned once and only its hash is stored. */
export async function createToken(db: Database, name: string, scopes: TokenScope[], sourceId: string | null = null): Promise<{ token: string; info: TokenInfo }> {
  assertTokenTable(db)
  const trimmed = name.trim()
  if (trimmed === '' || /^\d+$/.test(trimmed)) {
    throw new UsageError('invalid_token_name', `"${name}" is not a usable token name.`, { hint: 'Use a word such as laptop or ci; plain numbers are reserved for ids.' })
  }
  const token = generateToken()
  try {
    const { rows } = await db.query<TokenRow>(
      'INSERT INTO access_tokens (name, token_hash, scopes, source_id) VALUES ($1, $2, $3::text[], $4) RETURNING id, name, scopes, source_id, created_at, last_used_at, revoked_at',
      [trimmed, hashToken(token), scopes, sourceId],
    )
    return { token, info: toInfo(rows[0]!) }
  } catch (err) {
    if (isSqlStateError(err) && err.code === '23505') {
      throw new ValidationError('token_name_taken', `A token named ${trimmed} already exists.`, { hint: 'Pick another name, or revoke the old one first.' })
    }
    throw err
  }
}

export async function listTokens(db: Database): Promise<TokenInfo[]> {
  assertTokenTable(db)
  const { rows } = await db.query<TokenRow>('SELECT id, name, scopes, source_id, created_at, last_used_at, revoked_at FROM access_tokens ORDER BY id')
  return rows.map(toInfo)
}

/** Revokes by name, or by id when the argument is a number. Revoking twice keeps the first time. */
export async function revokeToken(db: Database, nameOrId: string): Promise<TokenInfo> {
  assertTokenTable(db)
  const byId = /^\d+$/.test(nameOrId.trim())
  const { rows } = await db.query<TokenRow>(
    `UPDATE access_tokens SET revoked_at = coalesce(revoked_at, now())
      WHERE ${byId ? 'id = $1::bigint' : 'name = $1'}
      RETURNING id, name, scopes, source_id, created_at, last_used_at, revoked_at`,
    [nameOrId.trim()],
  )
  if (!rows[0]) throw new NotFoundError('token_not_found', `No token ${nameOrId}.`, { hint: 'List tokens with `brain auth list`.' })
  return toInfo(rows[0])
}

export type BearerFailure = 'missing' | 'not_bearer' | 'unknown' | 'revoked'

export interface VerifiedToken {
  /** The static token's id; null for an OAuth access token. */
  tokenId: number | null
  /** The OAuth client an OAuth access token was issued to; null for a static token. */
  oauthClientId: string | null
  name: string
  scopes: TokenScope[]
  /** The one source a static token is limited to; null or absent for every source. */
  sourceId?: string | null
  /** Who the per-token rate bucket counts: one static token, or one OAuth client. */
  rateKey: string
}

export type BearerResult = { ok: true; token: VerifiedToken } | { ok: false; reason: BearerFailure }

/**
 * Checks an Authorization header against the token table. `last_used_at` is written only when
 * older than 60 s, so a busy client costs one row write a minute, not one per request.
 */
export async function verifyBearer(db: SqlExecutor, authorization: string | undefined | null): Promise<BearerResult> {
  if (authorization === undefined || authorization === null || authorization.trim() === '') return { ok: false, reason: 'missing' }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)
  if (!match) return { ok: false, reason: 'not_bearer' }
  // One statement: the lookup, and the touch of last_used_at when it is due (the condition is on
  // the updated row itself, so concurrent requests of one token write it once).
  const { rows } = await db.query<{ id: number; name: string; scopes: string[]; source_id: string | null; revoked_at: Date | null }>(
    `WITH found AS (SELECT id, name, scopes, source_id, revoked_at FROM access_tokens WHERE token_hash = $1),
     touched AS (
       UPDATE access_tokens a SET last_used_at = now() FROM found
       WHERE a.id = found.id AND found.revoked_at IS NULL
         AND (a.last_used_at IS NULL OR a.last_used_at < now() - interval '60 seconds')
       RETURNING a.id)
     SELECT id, name, scopes, source_id, revoked_at FROM found`,
    [hashToken(match[1]!)],
    { prepared: true },
  )
  const row = rows[0]
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.revoked_at !== null) return { ok: false, reason: 'revoked' }
  return { ok: true, token: { tokenId: Number(row.id), oauthClientId: null, name: row.name, scopes: row.scopes as TokenScope[], sourceId: row.source_id ?? null, rateKey: String(row.id) } }
}

export function hasScope(token: VerifiedToken, scope: TokenScope): boolean {
  return token.scopes.includes(scope)
}
