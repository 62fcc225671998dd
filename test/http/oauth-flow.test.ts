// test-runner: shares a process
/**
 * OAuth 2.1 end to end against a real `serve --http`: the MCP SDK's own client runs discovery,
 * registration, PKCE and the token exchange; the test plays the owner on the consent page over
 * HTTP. Then tool calls, refresh with rotation, revocation, and every refusal the issue lists.
 */
import { createHash, randomBytes } from 'node:crypto'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import t, { type Test } from 'tap'
import { registerClient } from '../../src/oauth/index.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, mcpHeaders, openDb, rawRequest, startServe, toolCall, type ServeProcess } from './helpers.js'

const REDIRECT = 'http://127.0.0.1:7/callback'

/** The SDK's client-side provider, kept in memory; the "browser" is the test itself. */
class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  authorizationUrl: URL | undefined
  constructor(readonly scope?: string) {}
  get redirectUrl(): string {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'e2e <agent>',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.scope ? { scope: this.scope } : {}),
    }
  }
  state(): string {
    return 'state-' + randomBytes(4).toString('hex')
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
}

interface ConsentForm {
  fields: Record<string, string>
  cookie: string
  html: string
}

async function openConsent(url: URL | string): Promise<ConsentForm> {
  const res = await fetch(url, { redirect: 'manual' })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`consent page answered ${res.status}: ${html}`)
  const fields: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!)
  const cookie = /^(brain_oauth_csrf=[^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? ''
  return { fields, cookie, html }
}

/** Submits the consent form as the owner's browser would; returns the answer (a 302 on approval). */
function submitConsent(server: ServeProcess, form: ConsentForm, extra: Record<string, string>, cookie = form.cookie): Promise<Response> {
  return fetch(`${server.base}/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams({ ...form.fields, ...extra }),
  })
}

/** The owner approves: returns the redirect's parameters. */
async function approve(server: ServeProcess, url: URL | string, owner: string): Promise<URLSearchParams> {
  const res = await submitConsent(server, await openConsent(url), { owner_token: owner, decision: 'approve' })
  if (res.status !== 302) throw new Error(`approval answered ${res.status}: ${await res.text()}`)
  return new URL(res.headers.get('location')!).searchParams
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

function authorizeUrl(server: ServeProcess, clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's1', ...extra })
  return `${server.base}/authorize?${params}`
}

async function token(server: ServeProcess, params: Record<string, string>, basic?: string): Promise<{ status: number; body: Record<string, string> }> {
  const res = await fetch(`${server.base}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(basic ? { Authorization: `Basic ${Buffer.from(basic).toString('base64')}` } : {}) },
    body: new URLSearchParams(params),
  })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

async function mcpStatus(server: ServeProcess, accessToken: string, headers: Record<string, string> = {}): Promise<{ status: number; reason?: string }> {
  const res = await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(accessToken, headers), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  return { status: res.status, reason: res.status === 401 ? res.json<{ reason: string }>().reason : undefined }
}

async function setup(t: Test): Promise<{ url: string; server: ServeProcess; owner: string }> {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  return { url: created.url, server, owner: await makeToken(created.url, 'owner', ['admin']) }
}

t.test('the SDK client signs in, calls tools, refreshes, and is refused after revocation', async (t) => {
  const { url, server, owner } = await setup(t)
  const provider = new MemoryProvider()
  const mcpUrl = new URL(`${server.base}/mcp`)
  const first = new Client({ name: 'oauth-e2e', version: '1' })
  await t.rejects(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })), { message: 'Unauthorized' }, 'no token yet: the SDK starts the flow')
  t.match(provider.info, { client_id: /^bc_/ }, 'the SDK registered itself dynamically')
  const authUrl = provider.authorizationUrl!
  t.equal(authUrl.searchParams.get('code_challenge_method'), 'S256')
  t.equal(authUrl.searchParams.get('resource'), server.base, 'the resource from the protected-resource metadata')

  const page = await openConsent(authUrl)
  t.ok(page.html.includes('e2e &#60;agent&#62;'), 'the client name is escaped')
  t.notOk(page.html.includes('e2e <agent>'), 'and never raw')
  t.match(page.cookie, /^brain_oauth_csrf=/)
  t.equal((await submitConsent(server, page, { owner_token: owner, decision: 'approve' }, 'brain_oauth_csrf=forged')).status, 403, 'a mismatched CSRF cookie is refused')
  const reader = await makeToken(url, 'not-owner', ['read', 'write'])
  t.equal((await submitConsent(server, page, { owner_token: reader, decision: 'approve' })).status, 401, 'a token without admin is not the owner')
  const approved = await submitConsent(server, page, { owner_token: owner, decision: 'approve' })
  t.equal(approved.status, 302)
  const back = new URL(approved.headers.get('location')!)
  t.equal(`${back.origin}${back.pathname}`, REDIRECT)
  t.equal(back.searchParams.get('state'), authUrl.searchParams.get('state'), 'state comes back')
  t.equal(back.searchParams.get('iss'), server.base)

  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
  await transport.finishAuth(back.searchParams.get('code')!)
  t.match(provider.saved, { access_token: /^boa_/, refresh_token: /^bor_/, token_type: /bearer/i, expires_in: 3600, scope: 'read write' })
  const client = new Client({ name: 'oauth-e2e', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
  t.teardown(() => client.close())
  t.ok((await client.listTools()).tools.length > 10, 'tools/list with the OAuth token')
  const put = await client.callTool({ name: 'put_page', arguments: { slug: 'notes/oauth', content: '# Signed in\n\nwith OAuth\n' } })
  t.notOk(put.isError, 'a write tool with the write scope')
  t.notOk((await client.callTool({ name: 'get_page', arguments: { slug: 'notes/oauth' } })).isError)

  const before = provider.saved!
  t.equal(await auth(provider, { serverUrl: mcpUrl }), 'AUTHORIZED', 'the SDK refreshes with the refresh token')
  const after = provider.saved!
  t.not(after.refresh_token, before.refresh_token, 'the refresh token rotated')
  t.not(after.access_token, before.access_token)
  t.equal((await mcpStatus(server, after.access_token)).status, 200)
  const viaApi = await fetch(`${server.base}/api/get_page`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', authorization: `Bearer ${after.access_token}` },
    body: JSON.stringify({ slug: 'notes/oauth' }),
  })
  t.equal(viaApi.status, 200, 'the JSON API takes the OAuth access token too')

  const revoke = await fetch(`${server.base}/revoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: after.access_token, client_id: provider.info!.client_id }),
  })
  t.equal(revoke.status, 200)
  t.same(await mcpStatus(server, after.access_token), { status: 401, reason: 'revoked' }, 'revoked → 401')

  const reused = await token(server, { grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: provider.info!.client_id })
  t.same([reused.status, reused.body.error], [400, 'invalid_grant'], 'a reused refresh token is refused')
  const rotatedAgain = await token(server, { grant_type: 'refresh_token', refresh_token: after.refresh_token!, client_id: provider.info!.client_id })
  t.same([rotatedAgain.status, rotatedAgain.body.error], [400, 'invalid_grant'], 'and the reuse revoked the whole family')

  const db = await openDb(url)
  t.teardown(() => db.close())
  const rows = (
    await db.query<{ route: string; method: string | null; status: number; error_code: string | null; oauth_client_id: string | null }>(
      `SELECT route, method, status, error_code, oauth_client_id FROM mcp_request_log WHERE route IN ('/token', '/revoke', '/authorize') ORDER BY id`,
    )
  ).rows
  const id = provider.info!.client_id
  t.match(
    rows.map((r) => [r.route, r.method, r.status, r.error_code]),
    [
      ['/authorize', 'consent_page', 200, null],
      ['/authorize', 'consent', 403, 'csrf_mismatch'],
      ['/authorize', 'consent', 401, 'owner_credential_refused'],
      ['/authorize', 'consent', 302, null],
      ['/token', 'authorization_code', 200, null],
      ['/token', 'refresh_token', 200, null],
      ['/revoke', 'revoke', 200, null],
      ['/token', 'refresh_token', 400, 'invalid_grant'],
      ['/token', 'refresh_token', 400, 'invalid_grant'],
    ],
    'issuance, refresh, revocation and failures are audited',
  )
  t.ok(
    rows.every((r) => r.oauth_client_id === id),
    'every row names the client',
  )
  const mcpRows = await db.query<{ oauth_client_id: string | null; token_id: number | null }>(`SELECT oauth_client_id, token_id FROM mcp_request_log WHERE route = '/mcp' AND status = 200`)
  t.ok(mcpRows.rows.length > 0 && mcpRows.rows.every((r) => r.oauth_client_id === id && r.token_id === null), 'tool calls are audited under the client')
})

t.test('refusals: PKCE, codes, redirects, scopes, audience, expiry, /ingest', async (t) => {
  const { url, server, owner } = await setup(t)
  const registered = (await (
    await fetch(`${server.base}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'reader', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', scope: 'read' }),
    })
  ).json()) as { client_id: string }
  const clientId = registered.client_id
  const exchange = (code: string, verifier: string | null, redirect = REDIRECT, extra: Record<string, string> = {}) =>
    token(server, { grant_type: 'authorization_code', code, redirect_uri: redirect, client_id: clientId, ...(verifier === null ? {} : { code_verifier: verifier }), ...extra })

  const p1 = pkce()
  const wrong = await exchange((await approve(server, authorizeUrl(server, clientId, p1.challenge), owner)).get('code')!, pkce().verifier)
  t.same([wrong.status, wrong.body.error], [400, 'invalid_grant'], 'a wrong PKCE verifier')
  const p2 = pkce()
  const missing = await exchange((await approve(server, authorizeUrl(server, clientId, p2.challenge), owner)).get('code')!, null)
  t.same([missing.status, missing.body.error], [400, 'invalid_grant'], 'a missing PKCE verifier')
  const p3 = pkce()
  const code3 = (await approve(server, authorizeUrl(server, clientId, p3.challenge), owner)).get('code')!
  const mismatch = await exchange(code3, p3.verifier, 'http://127.0.0.1:8/other')
  t.same([mismatch.status, mismatch.body.error], [400, 'invalid_grant'], 'a redirect URI that does not match the authorization request')

  const p4 = pkce()
  const code4 = (await approve(server, authorizeUrl(server, clientId, p4.challenge), owner)).get('code')!
  const good = await exchange(code4, p4.verifier)
  t.equal(good.status, 200, good.body.error_description)
  t.equal(good.body.scope, 'read')
  const again = await exchange(code4, p4.verifier)
  t.same([again.status, again.body.error], [400, 'invalid_grant'], 'a reused code')
  t.same(await mcpStatus(server, good.body.access_token!), { status: 401, reason: 'revoked' }, 'replaying the code revoked what it issued')

  const p5 = pkce()
  const fresh = await exchange((await approve(server, authorizeUrl(server, clientId, p5.challenge), owner)).get('code')!, p5.verifier)
  const reader = fresh.body.access_token!
  const readOnly = await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(reader), body: toolCall('put_page', { slug: 'notes/x', content: '# x\n' }) })
  t.match(readOnly.json(), { result: { isError: true } }, 'a write tool with a read-scope OAuth token is refused')
  const ingest = await fetch(`${server.base}/ingest`, { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain', authorization: `Bearer ${reader}` } })
  t.equal(ingest.status, 403, 'a read-scope OAuth token on /ingest')
  const apiWrite = await fetch(`${server.base}/api/put_page`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', authorization: `Bearer ${reader}` },
    body: JSON.stringify({ slug: 'notes/x', content: '# x\n' }),
  })
  t.equal(apiWrite.status, 403, 'and a write through the JSON API')
  t.same(await mcpStatus(server, reader, { Host: `localhost:${server.port}` }), { status: 401, reason: 'wrong_audience' }, 'a token minted for another resource')
  await t.test('expired', async (t) => {
    const db = await openDb(url)
    t.teardown(() => db.close())
    await db.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'access'`)
    t.same(await mcpStatus(server, reader), { status: 401, reason: 'expired' }, 'an expired access token')
  })

  const beyond = await fetch(authorizeUrl(server, clientId, pkce().challenge, { scope: 'read write' }), { redirect: 'manual' })
  t.equal(beyond.status, 302)
  t.equal(new URL(beyond.headers.get('location')!).searchParams.get('error'), 'invalid_scope', 'a scope the client did not get')
  const noPkce = await fetch(
    `${server.base}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'plain' })}`,
    { redirect: 'manual' },
  )
  t.equal(new URL(noPkce.headers.get('location')!).searchParams.get('error'), 'invalid_request', 'plain PKCE is refused')
  const unregistered = await fetch(authorizeUrl(server, clientId, pkce().challenge, { redirect_uri: 'https://attacker.example/cb' }), { redirect: 'manual' })
  t.equal(unregistered.status, 400, 'an unregistered redirect URI is never redirected to')
  t.equal(unregistered.headers.get('location'), null)
  const otherResource = await fetch(authorizeUrl(server, clientId, pkce().challenge, { resource: 'https://other.example' }), { redirect: 'manual' })
  t.equal(new URL(otherResource.headers.get('location')!).searchParams.get('error'), 'invalid_target', 'a code for another resource')
  const denied = await submitConsent(server, await openConsent(authorizeUrl(server, clientId, pkce().challenge)), { decision: 'deny' })
  t.equal(new URL(denied.headers.get('location')!).searchParams.get('error'), 'access_denied', 'the owner may deny')

  const db = await openDb(url)
  t.teardown(() => db.close())
  const machine = await registerClient(db, { name: 'daemon', redirectUris: [], scopes: ['write'], grantTypes: ['client_credentials'], authMethod: 'client_secret_basic', registeredBy: 'cli' })
  const basic = `${machine.client.clientId}:${machine.clientSecret}`
  t.equal((await token(server, { grant_type: 'client_credentials' }, `${machine.client.clientId}:wrong`)).status, 401, 'a wrong client secret')
  const elsewhere = await token(server, { grant_type: 'client_credentials', resource: 'https://other.example' }, basic)
  t.same([elsewhere.status, elsewhere.body.error], [400, 'invalid_target'], 'a token for another resource is not minted')
  const cc = await token(server, { grant_type: 'client_credentials', resource: `${server.base}/ingest` }, basic)
  t.equal(cc.status, 200, cc.body.error_description)
  t.equal(cc.body.refresh_token, undefined)
  const posted = await fetch(`${server.base}/ingest`, { method: 'POST', body: 'from the daemon', headers: { 'content-type': 'text/plain', authorization: `Bearer ${cc.body.access_token}` } })
  t.equal(posted.status, 202, 'a client_credentials token with write posts to /ingest')
})
