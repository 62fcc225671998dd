// test-runner: shares a process
/**
 * Access tokens on the server engine, and their refusal on the embedded engine.
 */
import t from 'tap'
import { createToken, hashToken, listTokens, parseScopes, revokeToken, verifyBearer } from '../../src/auth/index.js'
import { openTestDatabase } from '../helpers/engines.js'

t.test('create, verify, list and revoke [postgres]', async (t) => {
  const { db, cleanup } = await openTestDatabase('postgres')
  t.teardown(cleanup)
  const { token, info } = await createToken(db, 'laptop', ['read'])
  t.match(token, /^brain_[A-Za-z0-9_-]{43}$/)
  const stored = await db.query<{ token_hash: string }>('SELECT token_hash FROM access_tokens')
  t.same(stored.rows, [{ token_hash: hashToken(token) }], 'only the hash is stored')
  t.notOk(JSON.stringify(await listTokens(db)).includes(token), 'list never shows the token')

  t.same(await verifyBearer(db, undefined), { ok: false, reason: 'missing' })
  t.same(await verifyBearer(db, `Token ${token}`), { ok: false, reason: 'not_bearer' })
  t.same(await verifyBearer(db, 'Bearer brain_unknown'), { ok: false, reason: 'unknown' })
  t.same(await verifyBearer(db, `bearer ${token}`), { ok: true, token: { tokenId: info.id, oauthClientId: null, name: 'laptop', scopes: ['read'], sourceId: null, rateKey: String(info.id) } })

  const first = (await listTokens(db))[0]!.lastUsedAt
  t.ok(first, 'last_used_at is written on use')
  await db.query("UPDATE access_tokens SET last_used_at = now() - interval '30 seconds'")
  const recent = (await listTokens(db))[0]!.lastUsedAt!
  await verifyBearer(db, `Bearer ${token}`)
  t.equal((await listTokens(db))[0]!.lastUsedAt!.getTime(), recent.getTime(), 'not rewritten within 60 s')
  await db.query("UPDATE access_tokens SET last_used_at = now() - interval '61 seconds'")
  await verifyBearer(db, `Bearer ${token}`)
  t.ok((await listTokens(db))[0]!.lastUsedAt!.getTime() > Date.now() - 10_000, 'rewritten when older than 60 s')

  const team = await createToken(db, 'team', ['read', 'write'], 'teambrain')
  t.equal(team.info.sourceId, 'teambrain')
  t.match(await verifyBearer(db, `Bearer ${team.token}`), { ok: true, token: { name: 'team', sourceId: 'teambrain' } }, 'a token limited to a source says which')
  await t.rejects(createToken(db, 'laptop', ['read']), { code: 'token_name_taken' })
  await t.rejects(createToken(db, '42', ['read']), { code: 'invalid_token_name' })
  const revoked = await revokeToken(db, String(info.id))
  t.ok(revoked.revokedAt)
  await db.query("UPDATE access_tokens SET last_used_at = now() - interval '120 seconds'")
  const before = (await listTokens(db))[0]!.lastUsedAt!
  t.same(await verifyBearer(db, `Bearer ${token}`), { ok: false, reason: 'revoked' })
  t.equal((await listTokens(db))[0]!.lastUsedAt!.getTime(), before.getTime(), 'a revoked token is not marked as used')
  await t.rejects(revokeToken(db, 'nobody'), { code: 'token_not_found' })
})

t.test('scopes parse strictly', async (t) => {
  t.same(parseScopes(undefined), ['read', 'write'])
  t.same(parseScopes('read'), ['read'])
  t.same(parseScopes(' write , read,write'), ['write', 'read'])
  t.same(parseScopes('admin'), ['admin'], 'admin opens the /admin/events feed')
  t.throws(() => parseScopes('root'), { code: 'invalid_scopes' })
  t.throws(() => parseScopes(''), { code: 'invalid_scopes' })
})

t.test('the embedded engine has no token table [pglite]', async (t) => {
  const { db, cleanup } = await openTestDatabase('pglite')
  t.teardown(cleanup)
  await t.rejects(createToken(db, 'x', ['read']), { code: 'server_engine_required' })
  await t.rejects(listTokens(db), { code: 'server_engine_required' })
})
