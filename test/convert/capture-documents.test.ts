import { mkdtempSync, readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import t from 'tap'
import { BRAIN_BIN, cliBrain, servedCliMode, suiteEnv } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'
import { call, envelope } from '../mcp/tool-suite.js'
import { makeEncryptedPdf, makePdf } from './pdf-fixtures.js'

for (const engine of ENGINES) {
  t.test(`capture --file converts a PDF; the same file again is skipped; import prints per-format counts [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const dir = mkdtempSync(join(tmpdir(), 'brain-capdoc-'))
    const pdf = join(dir, 'Field Notes.pdf')
    await writeFile(pdf, await makePdf([{ heading: 'Birds', lines: ['A heron at dawn.'] }, { lines: ['Two egrets.'] }], { title: 'Field Notes' }))
    const first = await brain.run(['capture', '--file', pdf, '--no-embed'])
    t.equal(first.code, 0, first.stderr)
    t.match(first.json(), { slug: 'inbox/field-notes', status: 'created', format: 'pdf', title: 'Field Notes' })
    const again = await brain.run(['capture', '--file', pdf, '--no-embed'])
    t.match(again.json(), { slug: 'inbox/field-notes', status: 'skipped' })
    const page = await brain.run(['get', 'inbox/field-notes'])
    t.match(page.json(), { title: 'Field Notes', frontmatter: { source_format: 'pdf', pages: 2 }, compiled_truth: /## Page 2\n\nTwo egrets\./ })

    const mirror = join(dir, 'mirror')
    await mkdir(mirror)
    t.equal((await brain.run(['config', 'set', 'sync.repo_path', mirror])).code, 0)
    const birds = join(dir, 'Bird List.pdf')
    await writeFile(birds, await makePdf([{ lines: ['A kingfisher by the river.'] }], { title: 'Bird List' }))
    const mirrored = await brain.run(['capture', '--file', birds, '--slug', 'papers/bird-list', '--no-embed'])
    t.match(mirrored.json(), { slug: 'papers/bird-list', write_through: { written: true, path: join(mirror, 'papers', 'bird-list.md') } }, 'a document capture is written through like put')
    t.match(readFileSync(join(mirror, 'papers', 'bird-list.md'), 'utf8'), /source_format: pdf[\s\S]*kingfisher/, 'the file holds the converted page')

    const locked = join(dir, 'locked.pdf')
    await writeFile(locked, await makeEncryptedPdf())
    const refused = await brain.run(['capture', '--file', locked, '--no-embed'])
    t.not(refused.code, 0)
    t.match(refused.stdout + refused.stderr, /pdf_encrypted/)

    const folder = join(dir, 'folder')
    await mkdir(folder)
    await writeFile(join(folder, 'a.pdf'), await makePdf([{ lines: ['alpha text'] }]))
    await writeFile(join(folder, 'session.jsonl'), JSON.stringify({ type: 'user', sessionId: 's1', timestamp: '2024-01-01T00:00:00Z', message: { role: 'user', content: 'Fix the build' } }) + '\n')
    const imported = await brain.run(['import', folder, '--no-embed'])
    t.equal(imported.code, 0, imported.stderr)
    t.match(imported.json(), { created: 2, formats: { pdf: { files: 1, pages: 1 }, 'agent-jsonl': { files: 1, pages: 1 } } })
    const text = await brain.run(['import', folder, '--no-embed', '--no-json'])
    t.match(text.stdout, /2 unchanged/)
  })
}

t.test('the MCP capture tool converts a base64 file and refuses text and file together', async (t) => {
  const env = { PATH: process.env.PATH ?? '', BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-mcpdoc-')), BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local', ...suiteEnv() }
  const transport = new StdioClientTransport({ command: process.execPath, args: [BRAIN_BIN, 'serve'], env, stderr: 'pipe' })
  transport.stderr?.on('data', () => undefined)
  const client = new Client({ name: 'brain-test', version: '1' })
  await client.connect(transport)
  t.teardown(() => client.close())
  const exported = JSON.stringify([
    {
      id: 'g1',
      title: 'Recipe ideas',
      create_time: 1714550400,
      current_node: 'b',
      mapping: { a: { message: { author: { role: 'user' }, content: { parts: ['soup?'] } } }, b: { parent: 'a', message: { author: { role: 'assistant' }, content: { parts: ['Leek soup.'] } } } },
    },
  ])
  const file = { name: 'conversations.json', data_base64: Buffer.from(exported).toString('base64') }
  const captured = await call(client, 'capture', { file, no_embed: true })
  t.notOk(captured.isError, captured.text)
  t.match(captured.data, { status: 'created', format: 'chatgpt', slug: /^chats\/chatgpt\/recipe-ideas/ })
  const page = await call(client, 'get_page', { slug: String(captured.data.slug) })
  t.match(page.data, { frontmatter: { source_format: 'chatgpt', source_hash: /^[0-9a-f]{64}$/ }, compiled_truth: /Leek soup\./ })
  const again = await call(client, 'capture', { file, no_embed: true })
  t.equal(again.data.status, 'skipped')
  const both = await call(client, 'capture', { file, text: 'x' })
  t.ok(both.isError)
  t.match(envelope(both), { code: 'capture_requires_one_input' })
})
