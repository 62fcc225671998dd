/**
 * `brain serve --http` as a real process on a real PostgreSQL database: the SDK client over
 * Streamable HTTP, and raw requests for every step of the request pipeline.
 */
import { connect } from 'node:net'
import t, { type Test } from 'tap'
import { runBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { call, envelope, exerciseCatalogue } from '../mcp/tool-suite.js'
import { auditRows, makeToken, mcpHeaders, rawRequest, httpClient, startServe, toolCall, waitFor, type ServeProcess } from './helpers.js'

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

const post = (server: ServeProcess, token: string | null, body: string, extra: Record<string, string> = {}) => rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(token, extra), body })

t.test('every tool over HTTP with the SDK client; answers are JSON, never a stream', async (t) => {
  const url = await database(t)
  const server = await serve(t, url)
  const client = await httpClient(t, server, await makeToken(url, 'agent'))
  await exerciseCatalogue(t, client, { remote: true })
  const raw = await post(server, await makeToken(url, 'raw'), JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }), { Accept: 'application/json' })
  t.equal(raw.status, 200)
  t.match(String(raw.headers['content-type']), /^application\/json/)
  t.ok(raw.json<{ result: { tools: unknown[] } }>().result.tools.length >= 16)
})

t.test('read scope cannot call mutating tools', async (t) => {
  const url = await database(t)
  const server = await serve(t, url)
  const client = await httpClient(t, server, await makeToken(url, 'reader', ['read']))
  for (const name of ['put_page', 'capture', 'delete_page', 'add_tag', 'sync', 'submit_job']) {
    const args: Record<string, unknown> = {
      put_page: { slug: 'a/b', content: 'x' },
      capture: { text: 'x' },
      delete_page: { slug: 'a/b' },
      add_tag: { slug: 'a/b', tag: 't' },
      sync: { all: true },
      submit_job: { name: 'embed' },
    }[name]!
    t.match(envelope(await call(client, name, args)), { class: 'AuthError', code: 'insufficient_scope', hint: /write/ }, `${name} refused`)
  }
  t.notOk((await call(client, 'search', { query: 'anything' })).isError, 'reading works')
  const admin = await httpClient(t, server, await makeToken(url, 'operator', ['admin']))
  t.match(envelope(await call(admin, 'search', { query: 'anything' })), { code: 'insufficient_scope', hint: /read/ }, 'an admin-only token reads nothing')
})

t.test('remote writes are untrusted: provenance mcp:put_page and the slug allowlist', async (t) => {
  const url = await database(t)
  const server = await serve(t, url, { BRAIN_REMOTE_SLUG_PREFIXES: 'agents/, inbox/' })
  const client = await httpClient(t, server, await makeToken(url, 'agent'))
  const refused = await call(client, 'put_page', { slug: 'notes/private', content: '# Private', no_embed: true })
  t.match(envelope(refused), { class: 'ValidationError', code: 'slug_not_allowed', hint: /agents\/, inbox\// })
  const allowed = await call(client, 'put_page', { slug: 'agents/notes', content: '# Agent notes', no_embed: true })
  t.match(allowed.data, { status: 'created', ingested_via: 'mcp:put_page' })
  t.match((await call(client, 'get_page', { slug: 'agents/notes' })).data, { ingested_via: 'mcp:put_page' })
  t.match(envelope(await call(client, 'capture', { text: 'x', slug: 'notes/other', no_embed: true })), { code: 'slug_not_allowed' })
  t.match(envelope(await call(client, 'submit_job', { name: 'shell', data: { cmd: 'true' } })), { code: 'job_not_allowed_remotely' })
})

t.test('401 for a missing, non-Bearer, unknown or revoked token; each audited', async (t) => {
  const url = await database(t)
  const server = await serve(t, url)
  const token = await makeToken(url, 'laptop')
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
  t.equal((await post(server, null, list)).status, 401, 'missing')
  t.equal((await post(server, null, list, { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })).status, 401, 'not Bearer')
  t.equal((await post(server, 'brain_not-a-real-token', list)).status, 401, 'unknown')
  t.equal((await post(server, token, list)).status, 200, 'valid')
  const revoked = await runBrain(['auth', 'revoke', 'laptop', '--json'], { BRAIN_DATABASE_URL: url, BRAIN_HOME: server.home, BRAIN_NO_SERVICE: '1' })
  t.equal(revoked.code, 0, revoked.stderr)
  t.match(revoked.json(), { name: 'laptop', revoked_at: /\d{4}-/ })
  const after = await post(server, token, list)
  t.equal(after.status, 401, 'revoked')
  t.match(after.json(), { error: 'unauthorized', reason: 'revoked' })
  t.equal(after.headers['www-authenticate'], `Bearer realm="brain", resource_metadata="${server.base}/.well-known/oauth-protected-resource", error="invalid_token"`)
  const rows = await waitFor(async () => {
    const r = await auditRows(url)
    return r.length === 5 ? r : undefined
  }, 'five audit rows')
  t.same(
    rows.map((r) => [r.status, r.error_code]),
    [
      [401, 'unauthorized_missing'],
      [401, 'unauthorized_not_bearer'],
      [401, 'unauthorized_unknown'],
      [200, null],
      [401, 'unauthorized_revoked'],
    ],
  )
  t.equal(rows[3]!.method, 'tools/list')
  t.equal(rows[0]!.token_id, null)
})

t.test('CORS is default-deny; listed origins are allowed', async (t) => {
  const url = await database(t)
  const token = await makeToken(url, 'web')
  const closed = await serve(t, url)
  const denied = await rawRequest(`${closed.base}/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } })
  t.equal(denied.status, 403)
  t.equal(denied.headers['access-control-allow-origin'], undefined)
  const open = await serve(t, url, { BRAIN_HTTP_CORS_ORIGIN: 'https://app.example, https://other.example' })
  const preflight = await rawRequest(`${open.base}/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' } })
  t.equal(preflight.status, 204)
  t.equal(preflight.headers['access-control-allow-origin'], 'https://app.example')
  t.match(String(preflight.headers['access-control-allow-headers']), /Authorization/)
  const allowed = await post(open, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { Origin: 'https://app.example' })
  t.equal(allowed.status, 200)
  t.equal(allowed.headers['access-control-allow-origin'], 'https://app.example')
  const other = await post(open, token, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { Origin: 'https://evil.example' })
  t.equal(other.status, 403)
  t.equal(other.headers['access-control-allow-origin'], undefined)
  const refusals = (await auditRows(url)).filter((row) => row.error_code === 'origin_not_allowed')
  t.same(
    refusals.map((row) => [row.route, row.status]),
    [
      ['/mcp', 403],
      ['/mcp', 403],
    ],
    'each CORS refusal leaves an audit row, the preflight one included',
  )
})

t.test('X-Forwarded-For counts only with BRAIN_HTTP_TRUST_PROXY=1; the per-IP bucket limits before auth', async (t) => {
  const url = await database(t)
  const direct = await serve(t, url, { BRAIN_HTTP_IP_BURST: '2' })
  const proxied = await serve(t, url, { BRAIN_HTTP_IP_BURST: '2', BRAIN_HTTP_TRUST_PROXY: '1' })
  const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
  const from = (ip: string) => ({ 'X-Forwarded-For': `${ip}, 10.0.0.1` })
  // Trusted: each forwarded address has its own bucket.
  t.equal((await post(proxied, null, list, from('203.0.113.7'))).status, 401)
  t.equal((await post(proxied, null, list, from('203.0.113.7'))).status, 401)
  const limited = await post(proxied, null, list, from('203.0.113.7'))
  t.equal(limited.status, 429, 'third request from the same forwarded address is limited before auth')
  t.ok(Number(limited.headers['retry-after']) >= 1, 'Retry-After is set')
  t.equal((await post(proxied, null, list, from('198.51.100.9'))).status, 401, 'another forwarded address has its own bucket')
  // Not trusted: the header is ignored, every request is the loopback address.
  t.equal((await post(direct, null, list, from('203.0.113.7'))).status, 401)
  t.equal((await post(direct, null, list, from('198.51.100.9'))).status, 401)
  t.equal((await post(direct, null, list, from('192.0.2.1'))).status, 429, 'spoofed headers share one bucket')
  const rows = await waitFor(async () => {
    const r = await auditRows(url)
    return r.length === 7 ? r : undefined
  }, 'seven audit rows')
  const ips = rows.map((r) => r.client_ip)
  t.ok(ips.includes('203.0.113.7') && ips.includes('198.51.100.9'), 'trusted proxy: forwarded address recorded')
  t.equal(ips.filter((ip) => ip === '127.0.0.1').length, 3, 'untrusted: socket address recorded')
  t.equal(rows.filter((r) => r.error_code === 'rate_limited_ip').length, 2)
})

t.test('body cap counted on the stream, with and without Content-Length', async (t) => {
  const url = await database(t)
  const server = await serve(t, url, { BRAIN_HTTP_MAX_BODY_BYTES: '4096' })
  const token = await makeToken(url, 'big')
  const big = toolCall('put_page', { slug: 'notes/big', content: 'y'.repeat(8000) })
  const withLength = await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(token), body: big })
  t.equal(withLength.status, 413)
  t.match(withLength.json(), { error: 'body_too_large', max_bytes: 4096 })
  const chunked = await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(token), chunks: [big.slice(0, 3000), big.slice(3000)] })
  t.equal(chunked.status, 413, 'chunked body without Content-Length')
  const small = await rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(token), chunks: [toolCall('get_health', {})] })
  t.equal(small.status, 200, 'a small chunked body passes')
})

t.test('per-token rate limit answers 429 with Retry-After', async (t) => {
  const url = await database(t)
  const server = await serve(t, url, { BRAIN_HTTP_TOKEN_BURST: '3' })
  const token = await makeToken(url, 'busy')
  const statuses: number[] = []
  let retryAfter: string | string[] | undefined
  for (let i = 0; i < 5; i++) {
    const res = await post(server, token, toolCall('get_health', {}))
    statuses.push(res.status)
    if (res.status === 429) retryAfter = res.headers['retry-after']
  }
  t.same(statuses.slice(0, 3), [200, 200, 200])
  t.ok(statuses.slice(3).includes(429), `limited after the burst: ${statuses.join(',')}`)
  t.ok(Number(retryAfter) >= 1)
  const other = await makeToken(url, 'quiet')
  t.equal((await post(server, other, toolCall('get_health', {}))).status, 200, 'another token has its own bucket')
})

t.test('malformed input over HTTP gets clean errors, one audit row each, and the server keeps serving', async (t) => {
  const url = await database(t)
  const server = await serve(t, url)
  const token = await makeToken(url, 'fuzz')
  const broken = await post(server, token, '{"jsonrpc":"2.0","id":1,"method":')
  t.equal(broken.status, 400)
  t.match(broken.json(), { error: { code: -32700 } })
  const wrong = await post(server, token, toolCall('list_pages', { limit: 'many' }))
  t.match(wrong.json(), { result: { isError: true, structuredContent: { error: { code: 'invalid_params' } } } })
  const unknown = await post(server, token, toolCall('format_disk', {}))
  t.match(unknown.json(), { result: { isError: true, structuredContent: { error: { code: 'unknown_tool' } } } })
  const huge = await post(server, token, toolCall('put_page', { slug: 'notes/huge', content: 'z'.repeat(10 * 1024 * 1024) }))
  t.equal(huge.status, 413, '10 MB string: over the body cap')
  const depth = 20_000
  const nested = await post(server, token, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":${'['.repeat(depth)}1${']'.repeat(depth)}}}}`)
  t.match(nested.json(), { result: { isError: true, structuredContent: { error: { code: 'invalid_params' } } } })
  const notRpc = await post(server, token, '{"hello":"world"}')
  t.equal(notRpc.status, 400, 'JSON that is not JSON-RPC')
  // Truncated: the connection ends before the announced length arrived.
  await new Promise<void>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.end(`POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"jsonrpc":"2.0","id":1,`)
    })
    socket.on('error', reject)
    socket.on('close', () => resolve())
    socket.resume()
  })
  const health = await post(server, token, toolCall('get_health', {}))
  t.match(health.json(), { result: { structuredContent: { status: 'ok' } } }, 'still serving')
  const rows = await waitFor(async () => {
    const r = await auditRows(url)
    return r.length === 8 ? r : undefined
  }, 'eight audit rows')
  t.same(
    rows.map((r) => r.status),
    [400, 200, 200, 413, 200, 400, 499, 200],
  )
  t.same(
    rows.map((r) => r.tool_name),
    [null, 'list_pages', 'format_disk', null, 'search', null, null, 'get_health'],
  )
})

t.test('SIGTERM lets a request in flight finish, refuses new ones and exits 0', async (t) => {
  const url = await database(t)
  const server = await serve(t, url)
  const token = await makeToken(url, 'term')
  const body = toolCall('put_page', { slug: 'notes/in-flight', content: '# In flight\n\nwritten during shutdown', no_embed: true })
  const pending = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      )
      socket.write(body.slice(0, 20))
      setTimeout(() => {
        server.child.kill('SIGTERM')
        setTimeout(() => socket.write(body.slice(20)), 300)
      }, 300)
    })
    let text = ''
    socket.on('data', (d: Buffer) => (text += d.toString()))
    socket.on('error', reject)
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), text }))
  })
  const finished = await pending
  t.equal(finished.status, 200, 'the request in flight completed')
  t.match(finished.text, /"status":"created"/)
  t.equal(await server.exited, 0, 'exit code 0')
  await t.rejects(fetch(`${server.base}/health`), 'no new connections after shutdown')
  t.match(server.log(), /SIGTERM: finishing 1 request/)
})

t.test('serve --http on the embedded engine fails at once', async (t) => {
  const { mkdtempSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { join } = await import('node:path')
  const result = await runBrain(['serve', '--http', '--port', '0', '--json'], { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-emb-')), BRAIN_NO_SERVICE: '1' })
  t.equal(result.code, 1)
  t.match(result.json(), { error: { class: 'NotAvailableError', code: 'http_requires_server_engine', message: /token table/ } })
})
