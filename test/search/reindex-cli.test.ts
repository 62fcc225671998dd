import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

interface SearchJson {
  results: Array<{ slug: string }>
}

for (const engine of ENGINES) {
  t.test(`brain reindex --language [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    t.equal((await brain.run(['put', 'notes/haeuser', '--no-embed'], { input: '# Stadt\n\nDie Häuser am Fluss sind alt.' })).code, 0)
    t.same((await brain.run(['search', 'Haus', '--json'])).json<SearchJson>().results, [], 'english by default')

    const switched = await brain.run(['reindex', '--language', 'german', '--json'])
    t.equal(switched.code, 0, switched.stderr)
    t.match(switched.json(), { language: 'german', pages: 1 })
    t.match(switched.stderr, /brain reindex: content_chunks \d+\/\d+/, 'progress on stderr')
    t.same(
      (await brain.run(['search', 'Haus', '--json'])).json<SearchJson>().results.map((r) => r.slug),
      ['notes/haeuser'],
    )

    const human = await brain.run(['reindex', '--no-json'])
    t.match(human.stdout, /^Re-indexed 1 pages and \d+ chunks with search\.language = german$/m, 'without --language keeps the current one')

    const bad = await brain.run(['reindex', '--language', 'klingon', '--json'])
    t.equal(bad.code, 1)
    t.equal(bad.json<{ error: { code: string } }>().error.code, 'unknown_search_language')

    const init = await brain.run(['init', '--language', 'simple', '--json'])
    t.equal(init.code, 0, init.stderr)
    t.match(init.json(), { pages: 1, search_language: 'simple' }, 'init --language sets and applies the language')
    t.same((await brain.run(['search', 'Haus', '--json'])).json<SearchJson>().results, [], 'simple does not stem')
    t.same(
      (await brain.run(['search', 'häuser', '--json'])).json<SearchJson>().results.map((r) => r.slug),
      ['notes/haeuser'],
    )
  })
}
