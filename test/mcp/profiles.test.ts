/**
 * Tool profiles through the real MCP SDK client: every profile against the server in-process
 * (an in-memory transport), then `brain serve --tools` over stdio as a process for the flag,
 * `mcp.tools` in config.json, the memory profile's cost, calls outside the profile, and names the
 * command refuses. Listing and refused calls need no database; one session writes and reads a
 * page on the embedded engine to show the profile's own tools still work.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import t, { type Test } from 'tap'
import { countTokens } from '../../src/embedding/index.js'
import { createMcpServer } from '../../src/mcp/index.js'
import { profileTools, resolveToolSelection, TOOL_PROFILES, type CallContext, type ToolProfileName, type ToolSelection } from '../../src/operations/index.js'
import { BRAIN_BIN, runBrain, suiteEnv } from '../helpers/cli.js'
import { call, envelope, EXPECTED_TOOLS } from './tool-suite.js'

function brainHome(config?: unknown): string {
  const home = mkdtempSync(join(tmpdir(), 'brain-profiles-'))
  if (config !== undefined) writeFileSync(join(home, 'config.json'), JSON.stringify(config))
  return home
}

async function stdioClient(t: Test, args: string[], home = brainHome()): Promise<Client> {
  const env = { PATH: process.env.PATH ?? '', BRAIN_HOME: home, BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local', ...suiteEnv() }
  const transport = new StdioClientTransport({ command: process.execPath, args: [BRAIN_BIN, 'serve', ...args], env, stderr: 'pipe' })
  transport.stderr?.on('data', () => undefined)
  const client = new Client({ name: 'brain-test', version: '1' })
  await client.connect(transport)
  t.teardown(() => client.close())
  return client
}

const noDatabase: CallContext = {
  brain: () => Promise.reject(new Error('listing and refusing need no database')),
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  dryRun: false,
  remote: false,
  scopes: null,
  remoteSlugPrefixes: [],
}

/** The MCP server `brain serve` runs, in this process, with the SDK client on the other end. */
async function inProcessClient(t: Test, tools: ToolSelection | undefined): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const server = await createMcpServer(noDatabase, { version: '0.0.0', tools })
  await server.connect(serverSide)
  const client = new Client({ name: 'brain-test', version: '1' })
  await client.connect(clientSide)
  t.teardown(async () => {
    await client.close()
    await server.close()
  })
  return client
}

const expected = (profile: ToolProfileName): string[] =>
  profileTools(profile)
    .map((tool) => tool.name)
    .sort()

async function listedNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort()
}

t.test('each profile lists exactly its tools and refuses the others', async (t) => {
  for (const profile of TOOL_PROFILES) {
    const client = await inProcessClient(t, resolveToolSelection(profile))
    t.same(await listedNames(client), expected(profile), `${profile} lists its tools`)
    const outside = EXPECTED_TOOLS.find((name) => !expected(profile).includes(name))
    if (outside !== undefined) t.match(envelope(await call(client, outside, {})), { code: 'tool_not_in_profile' }, `${profile} refuses ${outside}`)
  }
  const reader = await inProcessClient(t, resolveToolSelection('read'))
  t.match(reader.getInstructions(), /search or query to find pages/)
  t.notMatch(reader.getInstructions(), /put_page/, 'the instructions name only tools the session serves')
  t.same(expected('all'), [...EXPECTED_TOOLS].sort(), 'all is the whole catalogue')
  t.same(await listedNames(await inProcessClient(t, undefined)), [...EXPECTED_TOOLS].sort(), 'no profile: the whole catalogue')
  t.same(await listedNames(await inProcessClient(t, resolveToolSelection('search,get_page,list_tags'))), ['get_page', 'list_tags', 'search'], 'a list of names')
  for (const profile of ['memory', 'read', 'write'] as const) {
    for (const admin of ['create_token', 'purge_trash', 'register_oauth_client', 'create_backup', 'run_doctor']) t.notOk(expected(profile).includes(admin), `${admin} is not in ${profile}`)
  }
})

t.test('brain serve --tools memory over stdio: at most 12 tools and 3,000 cl100k tokens of tools/list', async (t) => {
  const client = await stdioClient(t, ['--tools', 'memory'])
  const listed = await client.listTools()
  t.same(listed.tools.map((tool) => tool.name).sort(), expected('memory'))
  t.ok(listed.tools.length <= 12, `${listed.tools.length} tools`)
  const tokens = countTokens(JSON.stringify(listed))
  t.ok(tokens <= 3000, `tools/list is ${tokens} tokens`)
  for (const name of ['recall', 'remember', 'context_pack', 'search', 'query', 'get_page', 'put_page', 'capture'])
    t.ok(
      listed.tools.some((tool) => tool.name === name),
      `${name} is listed`,
    )
  const all = await (await inProcessClient(t, undefined)).listTools()
  t.ok(countTokens(JSON.stringify(all)) > 3 * tokens, 'the whole catalogue costs far more')

  // A call outside the profile fails clearly; the profile's own tools work [pglite].
  for (const name of ['create_token', 'delete_page', 'list_tags']) {
    const refused = await call(client, name, {})
    t.ok(refused.isError, `${name} refused`)
    t.match(envelope(refused), { class: 'UsageError', code: 'tool_not_in_profile', hint: /tools\/list/ })
  }
  t.match(envelope(await call(client, 'drop_everything', {})), { code: 'unknown_tool' })
  const put = await call(client, 'put_page', { slug: 'notes/profiled', content: '# Profiled\n\nserved by the memory profile', no_embed: true })
  t.notOk(put.isError, put.text)
  t.match((await call(client, 'get_page', { slug: 'notes/profiled' })).data, { title: 'Profiled' })
})

t.test('mcp.tools in config.json picks the profile; --tools wins over it', async (t) => {
  const home = brainHome({ mcp: { tools: 'read' } })
  t.same(await listedNames(await stdioClient(t, [], home)), expected('read'))
  t.same(await listedNames(await stdioClient(t, ['--tools', 'memory'], home)), expected('memory'))
})

t.test('an unknown profile or tool name is refused before serving', async (t) => {
  const flag = await runBrain(['serve', '--tools', 'memory,nope'], { BRAIN_HOME: brainHome() })
  t.equal(flag.code, 1)
  t.match(flag.json(), { error: { class: 'UsageError', code: 'unknown_tool', message: /--tools names "nope"/, hint: /memory, read, write, admin, all/ } })
  const configured = await runBrain(['serve'], { BRAIN_HOME: brainHome({ mcp: { tools: 'everything' } }) })
  t.equal(configured.code, 1)
  t.match(configured.json(), { error: { code: 'unknown_tool', message: /mcp\.tools in config\.json/ } })
  const http = await runBrain(['serve', '--http', '--port', '0', '--tools', 'nope'], { BRAIN_HOME: brainHome() })
  t.equal(http.code, 1)
  t.match(http.json(), { error: { code: 'unknown_tool' } })
})
