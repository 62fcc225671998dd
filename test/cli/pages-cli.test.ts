import t from 'tap'
import { ENGINES } from '../helpers/engines.js'
import { cliBrain, servedCliMode } from '../helpers/cli.js'

const NOTE = '---\ntitle: Graph notes\ntags: [graphs]\n---\n# Graph notes\n\nEdges connect nodes.\n'

for (const engine of ENGINES) {
  t.test(`put, get, list, delete round-trip through the CLI [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const put = await brain.run(['put', 'notes/graph', '--no-embed'], { input: NOTE })
    t.equal(put.code, 0, put.stderr)
    t.equal(put.json().status, 'created')
    t.equal(put.json().slug, 'notes/graph')
    t.match(put.json().content_hash, /^[0-9a-f]{64}$/)

    const again = await brain.run(['put', 'notes/graph', '--no-embed', '--no-json'], { input: NOTE })
    t.equal(again.code, 0)
    t.match(again.stdout, /^skipped notes\/graph/, 'identical re-put prints skipped')

    const got = await brain.run(['get', 'notes/graph'])
    t.equal(got.json().title, 'Graph notes')
    t.same(got.json().tags, ['graphs'])
    t.equal(got.json().page_kind, 'markdown')
    const markdown = await brain.run(['get', 'notes/graph', '--no-json'])
    t.match(markdown.stdout, /^---\n/)
    t.match(markdown.stdout, /Edges connect nodes\./)

    const chunks = await brain.run(['get', 'notes/graph', '--chunks'])
    t.ok(Array.isArray(chunks.json<{ chunks: unknown[] }>().chunks))

    await brain.run(['tag', 'notes/graph', 'math'])
    const listed = await brain.run(['list', '--tag', 'math'])
    t.same(
      listed.json<Array<{ slug: string }>>().map((p) => p.slug),
      ['notes/graph'],
    )
    const none = await brain.run(['list', '--type', 'person', '--no-json'])
    t.equal(none.stdout.trim(), 'No pages.')

    const deleted = await brain.run(['delete', 'notes/graph'])
    t.equal(deleted.code, 0)
    const gone = await brain.run(['get', 'notes/graph'])
    t.equal(gone.code, 1)
    t.same(gone.json<{ error: { class: string; code: string } }>().error.code, 'page_not_found')
    const deleteAgain = await brain.run(['delete', 'notes/graph'])
    t.equal(deleteAgain.code, 1)
  })

  t.test(`config get/set and capture through the CLI [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    t.equal((await brain.run(['config', 'set', 'auto_link', 'FALSE'])).code, 0)
    t.equal((await brain.run(['config', 'get', 'auto_link'])).json().value, 'false')
    const bad = await brain.run(['config', 'set', 'auto_link', 'maybe'])
    t.equal(bad.code, 1)
    t.equal(bad.json<{ error: { class: string } }>().error.class, 'UsageError')
    const captured = await brain.run(['capture', 'Remember', 'to', 'water', 'the', 'plants', '--no-embed'])
    t.equal(captured.code, 0, captured.stderr)
    t.match(captured.json().slug, /^inbox\/\d{4}-\d\d-\d\d-[0-9a-f]{8}$/)
    const quiet = await brain.run(['capture', 'Remember to water the plants', '--quiet', '--no-embed'])
    t.equal(quiet.stdout.trim(), captured.json().slug, 'same content, same slug; --quiet prints only the slug')
    const receipt = await brain.run(['capture', '--stdin', '--no-embed', '--no-json'], { input: '# Heading first\n\nbody' })
    t.equal(receipt.stdout.trim().split('\n').length, 5, 'five-line receipt')
    t.match(receipt.stdout, /^slug: +inbox\//m)
    t.match(receipt.stdout, /^status: +created/m)
  })
}

t.test('bad input: unknown command, missing argument, malformed --url, unreachable server', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(brain.cleanup)
  const unknown = await brain.run(['frobnicate'])
  t.equal(unknown.code, 1)
  t.same(Object.keys(unknown.json<{ error: object }>().error).sort(), ['class', 'code', 'hint', 'message'])
  t.equal(unknown.json<{ error: { code: string } }>().error.code, 'unknown_command')
  t.notMatch(unknown.stdout + unknown.stderr, /\n\s+at /, 'no stack trace')
  const human = await brain.run(['frobnicate', '--no-json'])
  t.equal(human.stdout, '')
  t.match(human.stderr, /^brain: Unknown command: frobnicate\n/)
  const missing = await brain.run(['get'])
  t.equal(missing.code, 1)
  t.equal(missing.json<{ error: { class: string } }>().error.class, 'UsageError')
  const badUrl = await brain.run(['init', '--url', 'not-a-url'])
  t.equal(badUrl.code, 1)
  t.equal(badUrl.json<{ error: { code: string } }>().error.code, 'invalid_database_url')
  const unreachable = await brain.run(['init', '--url', 'postgres://nobody@127.0.0.1:1/none', '--no-retry-connect'])
  t.equal(unreachable.code, 1)
  t.equal(unreachable.json<{ error: { code: string } }>().error.code, 'database_unreachable')
  const emptyPut = await brain.run(['put', 'x'], { input: '' })
  t.equal(emptyPut.json<{ error: { code: string } }>().error.code, 'put_requires_content')
})

t.test('--version and --help through the brain binary', async (t) => {
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(brain.cleanup)
  const version = await brain.run(['--version'])
  t.equal(version.stdout.trim(), '0.38.0.0')
  // Every command's help is checked in-process (test/cli/help.test.ts); here the binary's own
  // routing of --help: the program, a command, and a command of a group.
  for (const path of [[], ['search'], ['jobs', 'submit']]) {
    const help = await brain.run([...path, '--help'])
    t.equal(help.code, 0, `brain ${path.join(' ')} --help exits 0`)
    t.match(help.stdout, new RegExp(`\\$ brain ${path.length > 0 ? path.join(' ') : ''}`), `brain ${path.join(' ')} --help shows usage`)
  }
})
