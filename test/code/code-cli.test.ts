import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'
import { NOTE, REPO } from './fixture.js'

function writeRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'brain-code-repo-'))
  for (const [path, content] of Object.entries(REPO)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

for (const engine of ENGINES) {
  t.test(`brain code-def, code-refs, code-callers, code-callees, links, reconcile-links [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    const note = await brain.run(['put', 'notes/design', '--no-embed'], { input: NOTE })
    t.equal(note.code, 0, note.stderr)
    const imported = await brain.run(['import', writeRepo(), '--strategy', 'code', '--no-embed', '--json'])
    t.equal(imported.code, 0, imported.stderr)

    const def = await brain.run(['code-def', 'Queue.submit', '--json'])
    t.equal(def.code, 0, def.stderr)
    t.match(def.json<unknown[]>(), [{ slug: 'src/queue.ts', file: 'src/queue.ts', language: 'typescript', symbol_type: 'method', start_line: 4, end_line: 7, snippet: /submit/ }])
    const human = await brain.run(['code-def', 'enqueue', '--no-json'])
    t.match(human.stdout, /^src\/queue\.ts:14-17 {2}function enqueue\n {4}export function enqueue/)

    const outline = await brain.run(['code-symbols', 'src/queue.ts', '--json'])
    t.match(outline.json(), {
      slug: 'src/queue.ts',
      source_id: 'default',
      symbols: [
        { qualified: 'Queue', symbol_type: 'class', start_line: 3, end_line: 12 },
        { qualified: 'Queue.submit', start_line: 4 },
      ],
    })
    const outlineText = await brain.run(['code-symbols', 'src/queue.ts', '--no-json'])
    t.equal(outlineText.code, 0, outlineText.stderr)
    t.match(outlineText.stdout, /^ +3-12  class       Queue\n +4-7  method      Queue\.submit\n/)
    const refs = await brain.run(['code-refs', 'greet', '--lang', 'java', '--json'])
    t.match(refs.json<unknown[]>(), [{ slug: 'src/App.java', symbol_name: 'App', symbol_type: 'class', file: 'src/App.java' }])

    for (const command of ['code-def', 'code-refs', 'code-callers', 'code-callees']) {
      const missing = await brain.run([command, '--json'])
      t.equal(missing.code, 1)
      t.match(missing.json(), { error: { class: 'UsageError', code: `${command.replace('-', '_')}_requires_symbol`, hint: /brain/ } })
    }

    const callers = await brain.run(['code-callers', 'store', '--depth', '3', '--json'])
    const graph = callers.json<{ ambiguous: boolean; results: Array<{ symbol_name_qualified: string; depth: number; path: string[] }> }>()
    t.match(graph, { ambiguous: false, depth: 3, direction: 'callers' })
    t.match(
      graph.results.find((r) => r.symbol_name_qualified === 'App'),
      { depth: 3, path: ['App', 'Queue.submit', 'enqueue', 'store'] },
    )
    const ambiguous = await brain.run(['code-callers', 'duplicate', '--no-json'])
    t.match(ambiguous.stdout, /duplicate is ambiguous: 2 definitions/)
    const callees = await brain.run(['code-callees', 'main', '--no-json'])
    t.match(callees.stdout, /compute {2}src\/lib\.rs:11-14 {2}calls/)

    t.same((await brain.run(['links', 'notes/design', '--json'])).json(), { links: [], total: 0, offset: 0 }, 'the code arrived after the note')
    const dry = await brain.run(['reconcile-links', '--dry-run', '--json'])
    t.match(dry.json(), { status: 'ok', dry_run: true, links_added: 6, edgesTargetsMissing: 1 })
    const done = await brain.run(['reconcile-links', '--no-json'])
    t.match(done.stdout, /added 6 links; 1 cited files have no code page/)
    const { links } = (await brain.run(['links', 'notes/design', '--json'])).json<{ links: Array<{ to_slug: string; link_type: string; origin_field: string }> }>()
    t.same(
      links.map((l) => [l.to_slug, l.link_type, l.origin_field]),
      [
        ['app/main.py', 'documents', 'compiled_truth'],
        ['cmd/main.go', 'documents', 'timeline'],
        ['src/queue.ts', 'documents', 'compiled_truth'],
      ],
    )
    const back = await brain.run(['backlinks', 'notes/design', '--no-json'])
    t.match(back.stdout, /documented_by +src\/queue\.ts \(markdown, compiled_truth\)/)
    const extract = await brain.run(['extract', 'cmd/main.go', '--json'])
    t.equal(extract.code, 0, extract.stderr)
    t.match(extract.json(), { status: 'ok', links_added: 0 })
    const near = await brain.run(['search', 'job', '--near-symbol', 'enqueue', '--walk-depth', '1', '--json'])
    t.equal(near.code, 0, near.stderr)
    const badDepth = await brain.run(['search', 'job', '--near-symbol', 'enqueue', '--walk-depth', '9', '--json'])
    t.match(badDepth.json(), { error: { class: 'UsageError', code: 'invalid_walk_depth' } })
  })
}
