import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'
import { ENGINES } from '../helpers/engines.js'

interface Json {
  mode: string
  ran: string[]
  keyword_only: string | null
  notice: string | null
  limit: number
  offset: number
  detail: string
  results: Array<{ slug: string; score: number; source_id: string; stale: boolean; language: string | null }>
}

const PAGES: Array<[string, string]> = [
  ['notes/vacuum', '# Vacuum\n\nPostgres vacuum reclaims dead tuples; autovacuum runs it for you.'],
  ['originals/vacuum-essay', '# On vacuum\n\nWhy postgres vacuum matters for tuple visibility.'],
  ['private/vacuum-diary', '# Diary\n\nToday I learned about postgres vacuum.'],
]

for (const engine of ENGINES) {
  t.test(`brain search, query and embed [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(brain.cleanup)
    for (const [slug, content] of PAGES) t.equal((await brain.run(['put', slug, '--no-embed'], { input: content })).code, 0)

    const found = await brain.run(['search', 'postgres', 'vacuum', '--json'])
    t.equal(found.code, 0, found.stderr)
    const json = found.json<Json>()
    t.match(json, { mode: 'keyword', ran: ['keyword'], limit: 10, offset: 0, detail: 'medium' })
    t.equal(json.results[0]!.slug, 'originals/vacuum-essay', 'boosted prefix first')
    t.equal(json.results[0]!.source_id, 'default')

    const human = await brain.run(['search', 'postgres vacuum', '--no-json', '--limit', '2'])
    const lines = human.stdout.trimEnd().split('\n')
    t.equal(lines.length, 2)
    t.match(lines[0], /^\[\d+\.\d{4}\] originals\/vacuum-essay -- On vacuum Why postgres vacuum/)
    t.equal((await brain.run(['search', 'zebra', '--no-json'])).stdout, 'No results.\n')

    const excluded = await brain.run(['search', 'vacuum', '--limit', '10'], { env: { BRAIN_SEARCH_EXCLUDE: 'private/', BRAIN_SOURCE_BOOST: 'notes/:5' } })
    t.same(
      excluded.json<Json>().results.map((r) => r.slug),
      ['notes/vacuum', 'originals/vacuum-essay'],
      'env excludes and boosts reach the CLI',
    )
    const filtered = await brain.run(['search', 'vacuum', '--detail', ' High ', '--limit', '1', '--offset', '1', '--lang', 'python', '--symbol-kind', 'class', '--source', 'nope'])
    t.match(filtered.json<Json>(), { detail: 'high', limit: 1, offset: 1, results: [] }, 'every flag reaches the search')
    const badLimit = await brain.run(['search', 'vacuum', '--limit', 'ten'])
    t.equal(badLimit.code, 1)
    t.equal(badLimit.json<{ error: { code: string } }>().error.code, 'invalid_limit')

    const keywordOnlyHuman = await brain.run(['query', 'what reclaims dead tuples', '--no-json'])
    t.match(keywordOnlyHuman.stderr, /^note: Ran keyword-only\./m, 'hybrid without embeddings says it ran keyword-only')

    const noMode = await brain.run(['embed'])
    t.equal(noMode.code, 1)
    t.equal(noMode.json<{ error: { code: string } }>().error.code, 'embed_requires_mode')
    const embedded = await brain.run(['embed', '--stale'])
    t.equal(embedded.code, 0, embedded.stderr)
    t.match(embedded.json(), { mode: 'stale', total: 3, embedded: 3, failed: 0 })
    const again = await brain.run(['embed', '--stale', '--no-json'])
    t.equal(again.stdout.trim(), 'Nothing to embed: every chunk has an embedding.')

    const hybrid = await brain.run(['query', 'what reclaims dead tuples'])
    t.match(hybrid.json<Json>(), { mode: 'hybrid', ran: ['keyword', 'vector'], keyword_only: null, notice: null })
    t.equal(hybrid.json<Json>().results[0]!.slug, 'notes/vacuum')
  })
}
