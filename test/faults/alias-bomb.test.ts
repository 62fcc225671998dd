/**
 * The 375-byte alias bomb through every entry path: each refuses it as front matter that is too
 * complex, and the brain keeps answering other clients meanwhile.
 */
import t, { type Test } from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { BRAIN_BIN, childEnv, cliBrain, type CliBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { call, envelope } from '../mcp/tool-suite.js'
import { makeToken, mcpHeaders, rawRequest, startServe, toolCall } from '../http/helpers.js'
import { makeRepo } from '../intake/sync/helpers.js'
import { aliasBomb } from './fixtures.js'

const BOMB = aliasBomb()
/** Generous for a loaded machine; without the bound the service never answers at all. */
const ANSWER_BOUND_MS = 20_000

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now()
  const value = await work
  return { value, ms: Date.now() - started }
}

async function stdioClient(t: Test, brain: CliBrain): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BRAIN_BIN, 'serve'], env: childEnv(brain.env), stderr: 'pipe' })
  transport.stderr?.on('data', () => undefined)
  const client = new Client({ name: 'brain-fault-test', version: '1' })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}

t.test('through the service: import, sync, put and MCP stdio refuse the bomb and keep serving', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  t.equal((await brain.run(['put', 'notes/known', '--no-embed'], { input: '# Known\n\nA page about lighthouses.\n' })).code, 0)

  const folder = mkdtempSync(join(tmpdir(), 'brain-bomb-folder-'))
  writeFileSync(join(folder, 'bomb.md'), BOMB)
  writeFileSync(join(folder, 'good.md'), '# Good\n\nImported beside the bomb.\n')
  const [imported, searched] = await Promise.all([brain.run(['import', folder, '--no-embed']), timed(brain.run(['search', 'lighthouses']))])
  t.equal(imported.code, 0, imported.stderr)
  t.match(imported.json(), { created: 1, failed: 1, failures: [{ path: 'bomb.md', code: 'frontmatter_too_complex' }] })
  t.match(searched.value.stdout, /notes\/known/, 'a concurrent search is answered')
  t.ok(searched.ms < ANSWER_BOUND_MS, `within the bound (${searched.ms} ms)`)

  const put = await brain.run(['put', 'notes/bomb', '--no-embed'], { input: BOMB })
  t.equal(put.code, 1)
  t.equal(put.json<{ error: { code: string } }>().error.code, 'frontmatter_too_complex')
  t.not((await brain.run(['get', 'notes/bomb'])).code, 0, 'nothing stored')

  const repo = makeRepo({ 'bomb.md': BOMB, 'fine.md': '# Fine\n' })
  t.equal((await brain.run(['sources', 'add', 'repo', '--path', repo.dir])).code, 0)
  const synced = await brain.run(['sync', '--source', 'repo', '--no-embed'])
  t.equal(synced.code, 0, synced.stderr)
  t.match(synced.stdout, /frontmatter_too_complex/, 'sync reports the file')

  const writer = await stdioClient(t, brain)
  const reader = await stdioClient(t, brain)
  const [bombed, answered] = await Promise.all([call(writer, 'put_page', { slug: 'notes/mcp-bomb', content: BOMB }), timed(call(reader, 'search', { query: 'lighthouses' }))])
  t.ok(bombed.isError)
  t.equal(envelope(bombed).code, 'frontmatter_too_complex')
  t.notOk(answered.value.isError, 'the other MCP client is served')
  t.ok(answered.ms < ANSWER_BOUND_MS, `within the bound (${answered.ms} ms)`)
  const status = await brain.run(['service', 'status'])
  t.equal(status.code, 0, 'the service is still up')
})

t.test('over /mcp: put_page with the bomb is refused while /health answers', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const token = await makeToken(created.url, 'writer')
  const [bombed, health] = await Promise.all([
    rawRequest(`${server.base}/mcp`, { headers: mcpHeaders(token), body: toolCall('put_page', { slug: 'notes/http-bomb', content: BOMB }) }).then((r) => r.body),
    timed(fetch(`${server.base}/health`).then((r) => r.status)),
  ])
  t.match(bombed, /frontmatter_too_complex/)
  t.equal(health.value, 200)
  t.ok(health.ms < ANSWER_BOUND_MS, `health within the bound (${health.ms} ms)`)
})
