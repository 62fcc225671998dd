// test-runner: shares a process
import t from 'tap'
import { isStale, STALE_AFTER_DAYS } from '../../src/search/index.js'
import { makeSnippet, queryTerms } from '../../src/search/rows.js'

t.test('query terms are words only, lower-cased and de-duplicated', async (t) => {
  const cases: Array<[string, string[]]> = [
    ['', []],
    ['  ', []],
    ['Hello, World!', ['hello', 'world']],
    [`"exact phrase" -not OR 'x' & | ! ( ) :*`, ['exact', 'phrase', 'not', 'or', 'x']],
    ['café naïve 東京 42', ['café', 'naïve', '東京', '42']],
    ['dup Dup DUP', ['dup']],
    ['parseMarkdownPage snake_case', ['parsemarkdownpage', 'snake', 'case']],
  ]
  for (const [query, expected] of cases) t.same(queryTerms(query), expected, query)
})

t.test('snippets: one line, bounded, around the first hit', async (t) => {
  t.equal(makeSnippet('short\n\ntext   here', ['x'], 100), 'short text here')
  t.equal(makeSnippet('# Title\n\n## Part\n\nbody #tag', ['x'], 100), 'Title Part body #tag', 'heading markers dropped')
  const long = `${'alpha '.repeat(100)}needle ${'omega '.repeat(100)}`
  const around = makeSnippet(long, ['needle'], 120)
  t.ok(around.length <= 120, `length ${around.length}`)
  t.ok(around.includes('needle'))
  t.ok(around.startsWith('…') && around.endsWith('…'))
  const none = makeSnippet(long, ['absent'], 50)
  t.ok(none.startsWith('alpha') && none.endsWith('…') && none.length <= 50)
  const stem = makeSnippet(`${'x '.repeat(200)}caching layer`, ['caches'], 60)
  t.ok(stem.includes('caching'), 'a four-letter stem finds inflected forms')
  const atEnd = makeSnippet(`${'word '.repeat(100)}needle`, ['needle'], 80)
  t.ok(atEnd.endsWith('needle') && atEnd.length >= 70, 'a hit near the end still fills the window')
})

t.test('stale: older than STALE_AFTER_DAYS', async (t) => {
  const now = new Date('2025-06-01T00:00:00Z')
  const day = 86_400_000
  t.equal(STALE_AFTER_DAYS, 180)
  t.notOk(isStale(now, now))
  t.notOk(isStale(new Date(now.getTime() - 180 * day), now), 'exactly the threshold is fresh')
  t.ok(isStale(new Date(now.getTime() - 180 * day - 1), now))
  t.notOk(isStale(new Date(now.getTime() + day), now), 'future timestamps are fresh')
})
