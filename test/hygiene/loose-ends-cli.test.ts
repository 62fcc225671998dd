import t from 'tap'
import { ENGINES } from '../helpers/engines.js'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { makeRepo } from '../intake/sync/helpers.js'

interface Envelope {
  error: { class: string; code: string; hint: string; message: string }
}
interface ChunkJson {
  chunk_source: string
}

const THREE_FENCES = ['# Fences', '', '```ts', 'export const a = 1', '```', '', '```python', 'def b():\n    return 2', '```', '', '```sh', 'echo c', '```', ''].join('\n')

for (const engine of ENGINES) {
  t.test(`get, get --chunks, tag, untag and delete find a page of any source; an ambiguous slug names the sources [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const repo = makeRepo({ 'src/tool.ts': 'export function tool(): number {\n  return 1\n}\n', 'notes/shared.md': '# Shared in the repo\n' })
    t.equal((await brain.run(['sources', 'add', 'code', '--path', repo.dir, '--strategy', 'auto'])).code, 0)
    t.equal((await brain.run(['sync', '--source', 'code', '--no-embed'])).code, 0)
    const listed = await brain.run(['list'])
    const codePage = listed.json<Array<{ slug: string; source_id: string; page_kind: string }>>().find((p) => p.page_kind === 'code')
    t.ok(codePage, 'list shows the code page')
    const slug = codePage!.slug

    const got = await brain.run(['get', slug])
    t.equal(got.code, 0, got.stderr)
    t.match(got.json(), { slug, source_id: 'code', page_kind: 'code' })
    const chunks = await brain.run(['get', slug, '--chunks'])
    t.ok(chunks.json<{ chunks: unknown[] }>().chunks.length > 0, 'get --chunks finds it too')
    t.equal((await brain.run(['tag', slug, 'tooling'])).json().changed, true)
    t.same((await brain.run(['get', slug])).json().tags, ['tooling'])
    t.equal((await brain.run(['untag', slug, 'tooling'])).json().changed, true)

    t.equal((await brain.run(['put', 'notes/shared', '--no-embed'], { input: '# Shared in default\n' })).code, 0)
    for (const args of [
      ['get', 'notes/shared'],
      ['get', 'notes/shared', '--chunks'],
      ['tag', 'notes/shared', 'x'],
      ['untag', 'notes/shared', 'x'],
      ['delete', 'notes/shared'],
    ]) {
      const ambiguous = await brain.run(args)
      t.equal(ambiguous.code, 1, `${args.join(' ')} refuses`)
      t.match(ambiguous.json<Envelope>().error, { class: 'UsageError', code: 'ambiguous_slug', message: /code, default/, hint: /--source/ })
    }
    t.match((await brain.run(['get', 'notes/shared', '--source', 'code'])).json(), { title: 'Shared in the repo' })
    t.match((await brain.run(['get', 'notes/shared', '--source', 'default'])).json(), { title: 'Shared in default' })
    const wrongSource = await brain.run(['get', slug, '--source', 'default'])
    t.match(wrongSource.json<Envelope>().error, { code: 'page_not_found', hint: /brain list --source default/ })

    t.match((await brain.run(['delete', slug])).json(), { slug, source_id: 'code', deleted: true })
    const gone = await brain.run(['get', slug])
    t.match(gone.json<Envelope>().error, { code: 'page_not_found', hint: /brain list/ })
  })
}

t.test('capture runs as a capture job and prints the same receipt', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(brain.cleanup)
  const captured = await brain.run(['capture', 'Water', 'the', 'plants', '--no-embed', '--no-json'])
  t.equal(captured.code, 0, captured.stderr)
  const lines = captured.stdout.trim().split('\n')
  t.equal(lines.length, 5, 'five-line receipt')
  t.match(lines, [/^slug: +inbox\//, /^status: +created/, /^hash: +[0-9a-f]{64}/, /^path: /, /^title: +Water the plants/])
  const jobs = await brain.run(['jobs', 'list', '--name', 'capture'])
  t.match(jobs.json<Array<{ name: string; status: string; result: { slug: string } }>>(), [{ name: 'capture', status: 'completed' }])
  const json = await brain.run(['capture', 'Water', 'the', 'plants', '--no-embed', '--json'])
  t.match(json.json(), { status: 'skipped', title: 'Water the plants', wrapped: true })
  const quiet = await brain.run(['capture', 'Water the plants', '--no-embed', '--quiet'])
  t.equal(quiet.stdout, `${json.json().slug}\n`)
  const empty = await brain.run(['capture', '   '])
  t.equal(empty.json<Envelope>().error.code, 'capture_empty')
})

t.test('BRAIN_MAX_FENCES_PER_PAGE caps fences on put, capture and sync, not only import', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(brain.cleanup)
  const env = { BRAIN_MAX_FENCES_PER_PAGE: '1' }
  const fenced = async (slug: string, source?: string): Promise<number> => {
    const got = await brain.run(['get', slug, '--chunks', ...(source ? ['--source', source] : [])])
    return got.json<{ chunks: ChunkJson[] }>().chunks.filter((c) => c.chunk_source === 'fenced_code').length
  }
  t.equal((await brain.run(['put', 'notes/uncapped', '--no-embed'], { input: THREE_FENCES })).code, 0)
  t.equal(await fenced('notes/uncapped'), 3, 'the default cap (100) keeps all three')
  t.equal((await brain.run(['put', 'notes/capped', '--no-embed'], { input: THREE_FENCES, env })).code, 0)
  t.equal(await fenced('notes/capped'), 1, 'put')
  const captured = await brain.run(['capture', '--stdin', '--no-embed', '--slug', 'inbox/capped'], { input: THREE_FENCES, env })
  t.equal(captured.code, 0, captured.stderr)
  t.equal(await fenced('inbox/capped'), 1, 'capture')
  const repo = makeRepo({ 'fences.md': THREE_FENCES })
  await brain.run(['sources', 'add', 'repo', '--path', repo.dir])
  t.equal((await brain.run(['sync', '--source', 'repo', '--no-embed'], { env })).code, 0)
  t.equal(await fenced('fences', 'repo'), 1, 'sync')
})

t.test("shell jobs in the agents' shape run; any other shape ends dead with invalid_shell_job", async (t) => {
  const brain = await cliBrain('postgres', { mode: servedCliMode() })
  t.teardown(brain.cleanup)
  const env = { BRAIN_ALLOW_SHELL_JOBS: '1' }
  const cmd = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"echo \\"$GREETING\\"; pwd","cwd":"/tmp","env":{"GREETING":"hi"}}', '--wait'], { env })
  t.equal(cmd.code, 0, cmd.stdout + cmd.stderr)
  t.match(cmd.json(), { status: 'completed', result: { exit_code: 0, stdout: 'hi\n/tmp\n' } })
  const argv = await brain.run(['jobs', 'submit', 'shell', '--data', '{"argv":["echo","a b","$HOME"]}', '--wait'], { env })
  t.match(argv.json(), { status: 'completed', result: { stdout: 'a b $HOME\n' } })
  const legacy = await brain.run(['jobs', 'submit', 'shell', '--data', '{"command":"echo hi"}', '--wait'], { env })
  t.equal(legacy.code, 1)
  t.match(legacy.json<Envelope>().error, { class: 'ValidationError', code: 'invalid_shell_job', hint: /"cmd".*"argv"/ })
  const relative = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"pwd","cwd":"tmp"}', '--wait'], { env })
  t.match(relative.json<Envelope>().error, { code: 'invalid_shell_job', message: /absolute/ })
  const dead = await brain.run(['jobs', 'list', '--status', 'dead'])
  const deadJobs = dead.json<Array<{ name: string; error: { code: string } }>>()
  t.same(
    deadJobs.map((j) => [j.name, j.error.code]),
    [
      ['shell', 'invalid_shell_job'],
      ['shell', 'invalid_shell_job'],
    ],
    'both ended dead with the validation error',
  )
})
