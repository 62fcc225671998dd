import t from 'tap'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { BRAIN_BIN, cliBrain, childEnv } from '../helpers/cli.js'

function notes(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-mcp-notes-'))
  for (let i = 0; i < count; i++) {
    const dir = join(root, `group-${i % 10}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `note-${i}.md`), `# Note ${i}\n\nThe quick brown fox number ${i} jumps over lazy dog ${i % 7}.\n`)
  }
  return root
}

interface ToolText {
  content: Array<{ type: string; text?: string }>
  isError?: boolean
}

function textOf(result: unknown): string {
  return ((result as ToolText).content ?? []).map((c) => c.text ?? '').join('')
}

// Agent hosts start one `brain serve` per window; on the embedded engine each is a thin pipe into
// the one service that owns the brain, so they, an import and interactive searches all run at once.
t.test('three MCP stdio clients, an import and 50 searches share one embedded brain', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  const FILES = 200
  const root = notes(FILES)
  t.equal((await brain.run(['put', 'notes/seed', '--no-embed'], { input: '# Seed\n\nquick brown fox\n' })).code, 0)

  const clients: Client[] = []
  t.teardown(() => Promise.all(clients.map((c) => c.close().catch(() => undefined))))
  for (let i = 0; i < 3; i++) {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BRAIN_BIN, 'serve'], env: childEnv(brain.env), stderr: 'pipe' })
    const client = new Client({ name: `agent-${i}`, version: '1.0.0' })
    await client.connect(transport)
    clients.push(client)
  }
  const listed = await Promise.all(clients.map((c) => c.listTools()))
  t.ok(
    listed.every((l) => l.tools.some((tool) => tool.name === 'search')),
    'each client sees the catalogue',
  )

  const importing = brain.run(['import', root, '--no-embed'])
  const searches = Array.from({ length: 50 }, (_, i) => brain.run(['search', 'quick', 'fox', `${i % 7}`, '--limit', '5']))
  const agentWrites = clients.map((c, i) => c.callTool({ name: 'put_page', arguments: { slug: `agents/a${i}`, content: `# Agent ${i}\n\nwritten by agent ${i}\n`, no_embed: true } }))
  const agentSearches = clients.map((c) => c.callTool({ name: 'search', arguments: { query: 'quick fox' } }))
  const [imported, ...rest] = await Promise.all([importing, ...searches])
  const writes = await Promise.all(agentWrites)
  const agentFound = await Promise.all(agentSearches)

  t.equal(imported.code, 0, imported.stderr)
  t.equal(imported.json<{ created: number }>().created, FILES)
  t.same(
    rest.map((r) => r.code),
    Array(50).fill(0),
    'every CLI search succeeded',
  )
  t.notOk(
    rest.some((r) => /brain_locked/.test(r.stdout + r.stderr)),
    'no CLI search was locked out',
  )
  t.same(
    writes.map((w) => (w as ToolText).isError ?? false),
    [false, false, false],
    writes.map(textOf).join('\n'),
  )
  t.same(
    agentFound.map((r) => (r as ToolText).isError ?? false),
    [false, false, false],
    'every agent search succeeded',
  )
  t.notOk(
    [...writes, ...agentFound].some((r) => /brain_locked/.test(textOf(r))),
    'no agent was locked out',
  )

  const listedPages = await brain.run(['list', '--limit', '100000'])
  t.equal(listedPages.json<unknown[]>().length, FILES + 1 + 3, 'page count exact: import, seed and one page per agent')
  const got = await clients[0].callTool({ name: 'get_page', arguments: { slug: 'agents/a2' } })
  t.match(textOf(got), /written by agent 2/, 'one agent reads what another wrote')
})
