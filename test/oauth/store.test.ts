// test-runner: shares a process
/**
 * The OAuth store on the server engine: clients, codes bound to PKCE, rotating refresh tokens,
 * audience-bound access tokens; and its absence from the embedded engine.
 */
import { createHash, randomBytes } from 'node:crypto'
import t from 'tap'
import {
  authenticateClient,
  clientCredentials,
  createAuthorizationCode,
  exchangeCode,
  refreshTokens,
  registerClient,
  redirectUriAllowed,
  revokeClient,
  revokeTokenValue,
  verifyAnyBearer,
  type OAuthClient,
} from '../../src/oauth/index.js'
import { createToken } from '../../src/auth/index.js'
import { engineTest, openTestDatabase } from '../helpers/engines.js'

const AUD = 'http://127.0.0.1:1'
const LIFETIMES = { accessTtlMs: 3_600_000, refreshTtlMs: 86_400_000 }

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

engineTest(t, 'the oauth tables exist exactly on the server engine', async (t, { db }) => {
  for (const table of ['oauth_clients', 'oauth_codes', 'oauth_tokens']) {
    const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass('${table}') IS NOT NULL AS present`)
    t.equal(rows[0]!.present, db.capabilities.httpServer, table)
  }
})

t.test('clients, codes, refresh rotation and audience [postgres]', async (t) => {
  const { db, cleanup } = await openTestDatabase('postgres')
  t.teardown(cleanup)
  const redirect = 'http://127.0.0.1:9999/callback'
  await t.rejects(registerClient(db, { name: 'x', redirectUris: ['http://evil.example/cb'], scopes: ['read'], grantTypes: ['authorization_code'], authMethod: 'none', registeredBy: 'dynamic' }), {
    code: 'invalid_redirect_uri',
  })
  await t.rejects(registerClient(db, { name: 'x', redirectUris: [], scopes: ['read'], grantTypes: ['client_credentials'], authMethod: 'none', registeredBy: 'cli' }), {
    code: 'invalid_client_metadata',
  })
  await t.rejects(
    registerClient(db, { name: 'x', redirectUris: [], scopes: ['read'], grantTypes: [], authMethod: 'none', registeredBy: 'cli' }),
    { code: 'invalid_client_metadata' },
    'a client that could use no grant',
  )
  t.ok(redirectUriAllowed(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/cb'), 'a loopback redirect may use any port')
  t.notOk(redirectUriAllowed(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/other'), 'but not another path')
  t.notOk(redirectUriAllowed(['https://app.example/cb'], 'https://app.example:8443/cb'), 'an https redirect matches exactly')
  t.notOk(redirectUriAllowed(['http://127.0.0.1/cb'], 'http://localhost:5/cb'), 'and the loopback host is kept')
  const { client, clientSecret } = await registerClient(db, {
    name: 'agent',
    redirectUris: [redirect, 'https://app.example/cb'],
    scopes: ['read', 'write'],
    grantTypes: ['authorization_code', 'refresh_token'],
    authMethod: 'none',
    registeredBy: 'dynamic',
  })
  t.equal(clientSecret, null, 'a public client has no secret')
  t.equal((await authenticateClient(db, { clientId: client.clientId, clientSecret: null })).clientId, client.clientId)
  await t.rejects(authenticateClient(db, { clientId: client.clientId, clientSecret: 'guess' }), { code: 'invalid_client' })

  const { verifier, challenge } = pkce()
  const code = await createAuthorizationCode(db, { clientId: client.clientId, redirectUri: redirect, codeChallenge: challenge, scopes: ['read'], resource: AUD })
  const stored = await db.query<{ code_hash: string }>('SELECT code_hash FROM oauth_codes')
  t.notOk(
    stored.rows.some((r) => r.code_hash === code),
    'only the hash of the code is stored',
  )
  await t.rejects(exchangeCode(db, client, { code, redirectUri: redirect, codeVerifier: pkce().verifier, resource: null }, LIFETIMES), { code: 'invalid_grant' }, 'a wrong verifier is refused')
  await t.rejects(exchangeCode(db, client, { code, redirectUri: redirect, codeVerifier: verifier, resource: null }, LIFETIMES), { code: 'invalid_grant' }, 'and it spent the code')

  const second = pkce()
  const code2 = await createAuthorizationCode(db, { clientId: client.clientId, redirectUri: redirect, codeChallenge: second.challenge, scopes: ['read', 'write'], resource: AUD })
  const issued = await exchangeCode(db, client, { code: code2, redirectUri: redirect, codeVerifier: second.verifier, resource: AUD }, LIFETIMES)
  t.match(issued.response, { token_type: 'Bearer', expires_in: 3600, scope: 'read write', access_token: /^boa_/, refresh_token: /^bor_/ })
  const verified = await verifyAnyBearer(db, `Bearer ${issued.response.access_token}`, AUD)
  t.same(verified, { ok: true, token: { tokenId: null, oauthClientId: client.clientId, name: 'agent', scopes: ['read', 'write'], rateKey: `oauth:${client.clientId}` } })
  t.same(await verifyAnyBearer(db, `Bearer ${issued.response.access_token}`, 'https://other.example'), { ok: false, reason: 'wrong_audience' })

  const rotated = await refreshTokens(db, client, { refreshToken: issued.response.refresh_token, scopes: ['read'], resource: null }, LIFETIMES)
  t.equal(rotated.response.scope, 'read', 'a refresh may narrow the scopes')
  t.equal(rotated.familyId, issued.familyId, 'rotation stays in the family')
  await t.rejects(refreshTokens(db, client, { refreshToken: rotated.response.refresh_token, scopes: ['read', 'write'], resource: null }, LIFETIMES), { code: 'invalid_scope' }, 'never widen')
  t.equal((await verifyAnyBearer(db, `Bearer ${rotated.response.access_token}`, AUD)).ok, true, 'the rotated access token works')
  await t.rejects(refreshTokens(db, client, { refreshToken: issued.response.refresh_token, scopes: null, resource: null }, LIFETIMES), { code: 'invalid_grant' }, 'reuse is refused')
  t.same(await verifyAnyBearer(db, `Bearer ${rotated.response.access_token}`, AUD), { ok: false, reason: 'revoked' }, 'reuse revoked the family')

  await t.rejects(exchangeCode(db, client, { code: code2, redirectUri: redirect, codeVerifier: second.verifier, resource: null }, LIFETIMES), { code: 'invalid_grant' }, 'a code is single use')

  const machine = await registerClient(db, { name: 'daemon', redirectUris: [], scopes: ['write'], grantTypes: ['client_credentials'], authMethod: 'client_secret_basic', registeredBy: 'cli' })
  t.match(machine.clientSecret, /^bcs_/)
  const stranger: OAuthClient = await authenticateClient(db, { clientId: machine.client.clientId, clientSecret: machine.clientSecret })
  await t.rejects(clientCredentials(db, stranger, ['read'], AUD, LIFETIMES), { code: 'invalid_scope' }, 'a scope the client does not hold')
  const cc = await clientCredentials(db, stranger, null, AUD, LIFETIMES)
  t.equal(cc.response.refresh_token, undefined, 'client_credentials issues no refresh token')
  await db.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second'`)
  t.same(await verifyAnyBearer(db, `Bearer ${cc.response.access_token}`, AUD), { ok: false, reason: 'expired' })

  const fresh = await clientCredentials(db, stranger, null, AUD, LIFETIMES)
  t.equal(await revokeTokenValue(db, client, fresh.response.access_token), false, 'another client cannot revoke it')
  t.equal(await revokeTokenValue(db, stranger, fresh.response.access_token), true)
  t.same(await verifyAnyBearer(db, `Bearer ${fresh.response.access_token}`, AUD), { ok: false, reason: 'revoked' })
  const last = await clientCredentials(db, stranger, null, AUD, LIFETIMES)
  await revokeClient(db, machine.client.clientId)
  t.same(await verifyAnyBearer(db, `Bearer ${last.response.access_token}`, AUD), { ok: false, reason: 'revoked' }, 'revoking the client revokes its tokens')
  await t.rejects(authenticateClient(db, { clientId: machine.client.clientId, clientSecret: machine.clientSecret }), { code: 'invalid_client' })

  await db.query(`UPDATE oauth_tokens SET expires_at = now() - interval '2 days' WHERE token_hash <> ''`)
  await db.query(`UPDATE oauth_codes SET expires_at = now() - interval '2 days'`)
  const before = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_tokens')).rows[0]!.n)
  t.ok(before > 3)
  const { client: keeper } = await registerClient(db, { name: 'keeper', redirectUris: [], scopes: ['read'], grantTypes: ['client_credentials'], authMethod: 'client_secret_post', registeredBy: 'cli' })
  await clientCredentials(db, keeper, null, AUD, LIFETIMES)
  t.same((await db.query('SELECT client_id FROM oauth_tokens')).rows, [{ client_id: keeper.clientId }], 'tokens expired over a day ago are dropped at the next issuance')
  t.same((await db.query('SELECT 1 FROM oauth_codes')).rows, [], 'and codes too')

  const { token } = await createToken(db, 'static', ['read'])
  t.match(await verifyAnyBearer(db, `Bearer ${token}`, AUD), { ok: true, token: { name: 'static', oauthClientId: null } }, 'static tokens keep working')
})
