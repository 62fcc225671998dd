/**
 * `brain serve` over stdio, driven by the real MCP SDK client (and by raw lines for malformed
 * input), against real databases.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import t, { type Test } from 'tap'
import { BRAIN_BIN, suiteEnv } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { freePort } from '../helpers/pg-cluster.js'
import { call, envelope, exerciseCatalogue } from './tool-suite.js'

function serveEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-mcp-')), BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local', ...suiteEnv(), ...extra }
}

async function stdioClient(t: Test, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BRAIN_BIN, 'serve'], env: serveEnv(env), stderr: 'pipe' })
  transport.stderr?.on('data', () => undefined)
  const client = new Client({ name: 'brain-test', version: '1' })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}

t.test('initialize and tools/list answer without a database; tools report the problem with a hint', async (t) => {
  const deadPort = await freePort()
  const client = await stdioClient(t, { BRAIN_DATABASE_URL: `postgres://postgres@127.0.0.1:${deadPort}/none`, BRAIN_NO_RETRY_CONNECT: '1' })
  t.equal(client.getServerVersion()?.name, 'brain')
  t.ok((await client.listTools()).tools.length >= 16)
  const health = await call(client, 'get_health', {})
  t.ok(health.isError)
  t.match(envelope(health), { class: 'DatabaseError', hint: /\S/ })
  // The server is still alive and answers again.
  const again = await call(client, 'search', { query: 'anything' })
  t.match(envelope(again), { class: 'DatabaseError' })
  t.ok((await client.listTools()).tools.length >= 16, 'still serving')
})

t.test('every tool over stdio [postgres]', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const client = await stdioClient(t, { BRAIN_DATABASE_URL: created.url })
  await exerciseCatalogue(t, client, { remote: false })
})

t.test('two stdio servers on one brain at once [postgres]', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const [a, b] = await Promise.all([stdioClient(t, { BRAIN_DATABASE_URL: created.url }), stdioClient(t, { BRAIN_DATABASE_URL: created.url })])
  await Promise.all([call(a, 'put_page', { slug: 'notes/from-a', content: '# A\n\nfrom a', no_embed: true }), call(b, 'put_page', { slug: 'notes/from-b', content: '# B\n\nfrom b', no_embed: true })])
  t.same(((await call(a, 'list_pages', {})).data.pages as Array<{ slug: string }>).map((p) => p.slug).sort(), ['notes/from-a', 'notes/from-b'])
})

t.test('put and get over stdio [pglite]', async (t) => {
  const client = await stdioClient(t, {})
  const put = await call(client, 'put_page', { slug: 'notes/embedded', content: '# Embedded\n\nlocal page', no_embed: true })
  t.match(put.data, { status: 'created', ingested_via: 'put_page' })
  t.match((await call(client, 'get_page', { slug: 'notes/embedded' })).data, { title: 'Embedded' })
})

/** Raw newline-delimited JSON-RPC, for input no SDK client would send. */
function rawSession(env: Record<string, string>) {
  const child = spawn(process.execPath, [BRAIN_BIN, 'serve'], { env: serveEnv(env), stdio: ['pipe', 'pipe', 'ignore'] })
  const lines = createInterface({ input: child.stdout })
  const queue: string[] = []
  let waiting: ((line: string) => void) | null = null
  lines.on('line', (line) => {
    if (waiting) {
      const w = waiting
      waiting = null
      w(line)
    } else queue.push(line)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    send(text: string) {
      child.stdin.write(text)
    },
    next(): Promise<Record<string, unknown>> {
      const line = queue.shift()
      if (line !== undefined) return Promise.resolve(JSON.parse(line) as Record<string, unknown>)
      return new Promise((resolve) => (waiting = (l) => resolve(JSON.parse(l) as Record<string, unknown>)))
    },
    end() {
      child.stdin.end()
      return exited
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}

t.test('malformed input over stdio gets clean errors and the server keeps serving [postgres]', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const s = rawSession({ BRAIN_DATABASE_URL: created.url })
  t.teardown(() => s.kill())
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }
  s.send(JSON.stringify(init) + '\n')
  t.match(await s.next(), { id: 0, result: { serverInfo: { name: 'brain' } } })
  const callLine = (id: number, name: string, args: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) + '\n'

  s.send('{"jsonrpc":"2.0","id":1,"method":"tools/list"\n')
  t.match(await s.next(), { id: null, error: { code: -32700 } }, 'broken JSON: parse error')
  s.send('[1,2,3]\n')
  t.match(await s.next(), { id: null, error: { code: -32600 } }, 'not JSON-RPC: invalid request')
  s.send(callLine(2, 'list_pages', { limit: 'ten' }))
  t.match(await s.next(), { id: 2, result: { isError: true, structuredContent: { error: { code: 'invalid_params' } } } }, 'wrong types')
  s.send(callLine(3, 'drop_everything', {}))
  t.match(await s.next(), { id: 3, result: { isError: true, structuredContent: { error: { code: 'unknown_tool' } } } }, 'unknown tool')
  s.send(callLine(4, 'put_page', { slug: 'notes/huge', content: 'x'.repeat(10 * 1024 * 1024) }))
  t.match(await s.next(), { id: 4, result: { isError: true, structuredContent: { error: { code: 'invalid_params' } } } }, '10 MB string')
  const depth = 20_000
  s.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":${'{"d":'.repeat(depth)}1${'}'.repeat(depth)}}}}\n`)
  t.match(await s.next(), { id: 5, result: { isError: true, structuredContent: { error: { code: 'invalid_params' } } } }, 'deep nesting')
  s.send('x'.repeat(17 * 1024 * 1024) + '\n')
  t.match(await s.next(), { id: null, error: { code: -32600 } }, 'a line over the limit is refused')
  s.send('{"jsonrpc":"2.0","id":6,"method":"tools/ca\n')
  t.match(await s.next(), { id: null, error: { code: -32700 } }, 'truncated message')
  s.send(callLine(7, 'get_health', {}))
  t.match(await s.next(), { id: 7, result: { structuredContent: { status: 'ok' } } }, 'still serving')
  t.equal(await s.end(), 0, 'ends with exit 0 when stdin ends')
})
