// test-runner: shares a process
/**
 * `brain serve --http --tools` as a real process on PostgreSQL, with the MCP SDK client over
 * Streamable HTTP: the profile narrows what POST /mcp lists and runs, on the SDK's path and on
 * the plain tools/call path alike, and a token's scopes still decide inside it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { countTokens } from '../../src/embedding/index.js'
import { profileTools, type ToolProfileName } from '../../src/operations/index.js'
import { createPgDatabase } from '../helpers/engines.js'
import { call, envelope } from '../mcp/tool-suite.js'
import { auditRows, makeToken, mcpHeaders, rawRequest, httpClient, startServe, type ServeProcess } from './helpers.js'

async function serve(t: Test, env: Record<string, string>, args: string[]): Promise<{ url: string; server: ServeProcess }> {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url, env, args)
  t.teardown(() => server.stop('SIGKILL'))
  return { url: created.url, server }
}

const expected = (profile: ToolProfileName): string[] =>
  profileTools(profile)
    .map((tool) => tool.name)
    .sort()

t.test('--tools memory over HTTP: its tools only, within 3,000 tokens; others refused on both paths', async (t) => {
  const { url, server } = await serve(t, {}, ['--tools', 'memory'])
  const token = await makeToken(url, 'owner', ['read', 'write', 'admin'])
  const client = await httpClient(t, server, token)
  const listed = await client.listTools()
  t.same(listed.tools.map((tool) => tool.name).sort(), expected('memory'))
  t.ok(listed.tools.length <= 12)
  const tokens = countTokens(JSON.stringify(listed))
  t.ok(tokens <= 3000, `tools/list is ${tokens} tokens`)

  const refused = await call(client, 'create_token', { name: 'sneaky' })
  t.ok(refused.isError, 'an admin token cannot reach an admin tool outside the profile')
  t.match(envelope(refused), { class: 'UsageError', code: 'tool_not_in_profile', hint: /tools\/list/ })
  // With _meta in its params the call takes the SDK's path rather than the plain one.
  const viaSdk = await rawRequest(`${server.base}/mcp`, {
    headers: mcpHeaders(token),
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_tokens', arguments: {}, _meta: { progressToken: 1 } } }),
  })
  t.equal(viaSdk.status, 200)
  t.match(viaSdk.json(), { id: 7, result: { isError: true, structuredContent: { error: { code: 'tool_not_in_profile' } } } })

  const put = await call(client, 'put_page', { slug: 'notes/served', content: '# Served\n\nthe lantern note', no_embed: true })
  t.notOk(put.isError, put.text)
  t.match((await call(client, 'search', { query: 'lantern' })).data, { results: [{ slug: 'notes/served' }] })
  const reader = await httpClient(t, server, await makeToken(url, 'reader', ['read']))
  t.match(envelope(await call(reader, 'remember', { text: 'Served decided.', about: ['notes/served'] })), { code: 'insufficient_scope' }, 'scopes still decide inside the profile')
  const rows = await auditRows(url)
  t.ok(
    rows.some((row) => row.tool_name === 'create_token' && row.error_code === 'tool_not_in_profile'),
    'the refusal is audited with its code',
  )
})

t.test('mcp.tools in config.json over HTTP: the write profile, without admin tools even for an admin token', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-http-profile-'))
  writeFileSync(join(home, 'config.json'), JSON.stringify({ mcp: { tools: 'write' } }))
  const { url, server } = await serve(t, { BRAIN_HOME: home }, [])
  const client = await httpClient(t, server, await makeToken(url, 'owner', ['read', 'write', 'admin']))
  const names = (await client.listTools()).tools.map((tool) => tool.name).sort()
  t.same(names, expected('write'))
  for (const admin of ['create_token', 'purge_trash', 'register_oauth_client', 'create_backup']) t.notOk(names.includes(admin), `${admin} not listed`)
  t.match(envelope(await call(client, 'purge_trash', {})), { code: 'tool_not_in_profile' })
  t.notOk((await call(client, 'put_page', { slug: 'notes/written', content: '# Written\n\nby the write profile', no_embed: true })).isError, 'a write tool runs')
  t.match((await call(client, 'add_tag', { slug: 'notes/written', tag: 'kept' })).data, { changed: true })
})
