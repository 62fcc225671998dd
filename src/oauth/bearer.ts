import type { SqlExecutor } from '../db/index.js'
import { verifyBearer, type TokenScope, type VerifiedToken } from '../auth/index.js'
import { PREFIX, sha256Hex } from './secrets.js'

/** Why a bearer credential was refused; the OAuth-only reasons join the static token's. */
export type AnyBearerFailure = 'missing' | 'not_bearer' | 'unknown' | 'revoked' | 'expired' | 'wrong_audience'

export type AnyBearerResult = { ok: true; token: VerifiedToken } | { ok: false; reason: AnyBearerFailure }

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

/**
 * Checks an Authorization header that may carry either credential: an OAuth access token
 * (recognised by its prefix; it must be unexpired, unrevoked, of an unrevoked client, and minted
 * for `audience`) or a static access token from `brain auth create`.
 */
export async function verifyAnyBearer(db: SqlExecutor, authorization: string | undefined | null, audience: string): Promise<AnyBearerResult> {
  const match = authorization ? BEARER.exec(authorization) : null
  if (!match || !match[1]!.startsWith(PREFIX.access)) return verifyBearer(db, authorization)
  const { rows } = await db.query<{ client_id: string; name: string; scopes: string[]; resource: string; expired: boolean; revoked: boolean }>(
    `SELECT t.client_id, c.name, t.scopes, t.resource, t.expires_at <= now() AS expired,
            (t.revoked_at IS NOT NULL OR c.revoked_at IS NOT NULL) AS revoked
       FROM oauth_tokens t JOIN oauth_clients c ON c.client_id = t.client_id
      WHERE t.token_hash = $1 AND t.kind = 'access'`,
    [sha256Hex(match[1]!)],
    { prepared: true },
  )
  const row = rows[0]
  if (!row) return { ok: false, reason: 'unknown' }
  if (row.revoked) return { ok: false, reason: 'revoked' }
  if (row.expired) return { ok: false, reason: 'expired' }
  if (row.resource !== audience) return { ok: false, reason: 'wrong_audience' }
  return { ok: true, token: { tokenId: null, oauthClientId: row.client_id, name: row.name, scopes: row.scopes as TokenScope[], rateKey: `oauth:${row.client_id}` } }
}
