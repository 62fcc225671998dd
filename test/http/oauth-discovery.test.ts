/**
 * OAuth discovery and client registration on a real `serve --http`: the RFC 9728 and RFC 8414
 * documents, the challenge of a 401, `/register` (on, and switched off), and the
 * `brain auth clients` commands.
 */
import t, { type Test } from 'tap'
import { runBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, mcpHeaders, openDb, rawRequest, startServe, type ServeProcess } from './helpers.js'

async function database(t: Test): Promise<string> {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  return created.url
}

async function serve(t: Test, url: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const server = await startServe(url, env)
  t.teardown(() => server.stop('SIGKILL'))
  return server
}

function register(server: ServeProcess, body: unknown): Promise<Response> {
  return fetch(`${server.base}/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
}

t.test('discovery documents, challenges and dynamic registration', async (t) => {
  const url = await database(t)
  const server = await serve(t, url)
  const prm = await (await fetch(`${server.base}/.well-known/oauth-protected-resource`)).json()
  t.same(prm, { resource: server.base, authorization_servers: [server.base], scopes_supported: ['read', 'write'], bearer_methods_supported: ['header'], resource_name: 'brain' })
  t.same(await (await fetch(`${server.base}/.well-known/oauth-protected-resource/mcp`)).json(), prm, 'the path-aware address serves the same document')
  const as = (await (await fetch(`${server.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>
  t.match(as, {
    issuer: server.base,
    authorization_endpoint: `${server.base}/authorize`,
    token_endpoint: `${server.base}/token`,
    registration_endpoint: `${server.base}/register`,
    revocation_endpoint: `${server.base}/revoke`,
    code_challenge_methods_supported: ['S256'],
    response_types_supported: ['code'],
  })

  const crossOrigin = await fetch(`${server.base}/.well-known/oauth-authorization-server`, { headers: { Origin: 'https://inspector.example' } })
  t.equal(crossOrigin.status, 200, 'discovery is readable from any browser origin')
  t.equal(crossOrigin.headers.get('access-control-allow-origin'), 'https://inspector.example')
  const preflight = await fetch(`${server.base}/.well-known/oauth-protected-resource/mcp`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://inspector.example', 'Access-Control-Request-Headers': 'mcp-protocol-version' },
  })
  t.equal(preflight.status, 204)
  t.equal((await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(null, { Origin: 'https://inspector.example' }), body: '{}' })).status, 403, '/mcp stays default-deny')

  const challenge = `Bearer realm="brain", resource_metadata="${server.base}/.well-known/oauth-protected-resource"`
  const mcp = await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(null), body: '{}' })
  t.equal(mcp.status, 401)
  t.equal(mcp.headers['www-authenticate'], challenge, '/mcp points at the resource metadata')
  const ingest = await fetch(`${server.base}/ingest`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } })
  t.equal(ingest.status, 401)
  t.equal(ingest.headers.get('www-authenticate'), `${challenge}, scope="write"`, '/ingest too')
  const reader = await makeToken(url, 'reader', ['read'])
  const forbidden = await fetch(`${server.base}/ingest`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain', authorization: `Bearer ${reader}` } })
  t.equal(forbidden.status, 403, 'a read-scope static token on /ingest')

  const ok = await register(server, { client_name: 'desk <b>agent</b>', redirect_uris: ['http://127.0.0.1:4567/cb', 'https://agent.example/cb'], token_endpoint_auth_method: 'none' })
  t.equal(ok.status, 201)
  t.equal(ok.headers.get('cache-control'), 'no-store')
  const info = (await ok.json()) as Record<string, unknown>
  t.match(info, { client_id: /^bc_/, client_name: 'desk <b>agent</b>', token_endpoint_auth_method: 'none', scope: 'read write', grant_types: ['authorization_code', 'refresh_token'] })
  t.notOk('client_secret' in info, 'a public client gets no secret')
  const confidential = (await (await register(server, { client_name: 'hosted', redirect_uris: ['https://agent.example/cb'] })).json()) as Record<string, unknown>
  t.match(confidential, { client_secret: /^bcs_/, token_endpoint_auth_method: 'client_secret_basic' })

  for (const [uri, why] of [
    ['http://agent.example/cb', 'plain http off loopback'],
    ['https://agent.example/cb#frag', 'a fragment'],
    ['javascript:alert(1)', 'not http'],
  ] as const) {
    const refused = await register(server, { client_name: 'bad', redirect_uris: [uri], token_endpoint_auth_method: 'none' })
    t.equal(refused.status, 400, why)
    t.equal(((await refused.json()) as { error: string }).error, 'invalid_redirect_uri', why)
  }
  const admin = await register(server, { client_name: 'greedy', redirect_uris: ['https://agent.example/cb'], scope: 'read admin' })
  t.equal(((await admin.json()) as { error: string }).error, 'invalid_client_metadata', 'no admin scope by registration')

  const db = await openDb(url)
  t.teardown(() => db.close())
  const stored = await db.query<{ secret_hash: string | null }>('SELECT secret_hash FROM oauth_clients WHERE client_id = $1', [String(confidential.client_id)])
  t.not(stored.rows[0]!.secret_hash, confidential.client_secret, 'only the hash of the secret is stored')
  const audit = await db.query<{ status: number; error_code: string | null; oauth_client_id: string | null }>(
    `SELECT status, error_code, oauth_client_id FROM mcp_request_log WHERE route = '/register' ORDER BY id`,
  )
  t.same(
    audit.rows.slice(0, 2),
    [
      { status: 201, error_code: null, oauth_client_id: info.client_id },
      { status: 201, error_code: null, oauth_client_id: confidential.client_id },
    ],
    'registrations are audited',
  )
  t.equal(audit.rows[2]!.error_code, 'invalid_redirect_uri', 'refusals too')

  const env = { BRAIN_DATABASE_URL: url, BRAIN_HOME: server.home, BRAIN_NO_SERVICE: '1' }
  const made = await runBrain(['auth', 'clients', 'register', 'inbox-daemon', '--scopes', 'write', '--json'], env)
  t.equal(made.code, 0, made.stderr)
  const daemon = made.json<{ client_id: string; client_secret: string; grant_types: string[] }>()
  t.match(daemon, { client_id: /^bc_/, client_secret: /^bcs_/, grant_types: ['client_credentials'] })
  const badCli = await runBrain(['auth', 'clients', 'register', 'x', '--redirect-uri', 'http://agent.example/cb', '--json'], env)
  t.equal(badCli.code, 1)
  t.match(badCli.stderr + badCli.stdout, /invalid_redirect_uri/)
  const listed = await runBrain(['auth', 'clients', 'list', '--json'], env)
  t.equal(listed.json<unknown[]>().length, 3)
  t.notOk(listed.stdout.includes(daemon.client_secret), 'list never shows a secret')
  const revoked = await runBrain(['auth', 'clients', 'revoke', daemon.client_id, '--json'], env)
  t.match(revoked.json(), { client_id: daemon.client_id, revoked_at: /\d{4}-/ })
})

t.test('registration switched off; a configured public URL is issuer and audience', async (t) => {
  const url = await database(t)
  const server = await serve(t, url, { BRAIN_OAUTH_REGISTRATION: '0', BRAIN_HTTP_PUBLIC_URL: 'https://brain.example' })
  const as = (await (await fetch(`${server.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>
  t.notOk('registration_endpoint' in as, 'the metadata does not advertise it')
  t.match(as, { issuer: 'https://brain.example', token_endpoint: 'https://brain.example/token' }, 'whatever Host the request named')
  t.match(await (await fetch(`${server.base}/.well-known/oauth-protected-resource`)).json(), { resource: 'https://brain.example' })
  const refused = await register(server, { client_name: 'x', redirect_uris: ['https://agent.example/cb'] })
  t.equal(refused.status, 403)
  t.equal(((await refused.json()) as { error: string }).error, 'registration_disabled')
})

t.test('/register, /authorize and /token share the per-IP bucket of /mcp', async (t) => {
  const url = await database(t)
  const server = await serve(t, url, { BRAIN_HTTP_IP_BURST: '4' })
  const form = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=nobody' }
  const statuses = [
    (await register(server, { client_name: 'x', redirect_uris: ['https://agent.example/cb'] })).status,
    (await fetch(`${server.base}/authorize?client_id=nobody`)).status,
    (await fetch(`${server.base}/token`, form)).status,
    (await fetch(`${server.base}/revoke`, form)).status,
  ]
  t.same(statuses, [201, 400, 401, 401], 'within the burst each endpoint answers for itself')
  const limited = await fetch(`${server.base}/token`, form)
  t.equal(limited.status, 429, 'beyond it: 429')
  t.match(limited.headers.get('retry-after'), /^\d+$/)
  t.equal((await fetch(`${server.base}/authorize?client_id=nobody`)).status, 429)
})
