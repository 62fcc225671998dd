// test-runner: shares a process
import t from 'tap'
import { planSearch } from '../../src/search/index.js'

const settings = { excludeRaw: 'private/', sourceBoostRaw: 'projects/:2' }

t.test('defaults', async (t) => {
  const plan = planSearch({}, { excludeRaw: null, sourceBoostRaw: null })
  t.match(plan, { limit: 10, offset: 0, detail: 'medium', language: null, symbolKind: null, sourceId: null })
  t.same(plan.excludes, ['.raw/', 'archive/', 'attachments/', 'test/'])
  t.ok(plan.boosts.some((b) => b.prefix === 'originals/' && b.factor === 1.5))
})

t.test('detail high drops the boost but keeps the excludes', async (t) => {
  const plan = planSearch({ detail: ' High ' }, settings)
  t.equal(plan.detail, 'high')
  t.same(plan.boosts, [])
  t.ok(plan.excludes.includes('private/') && plan.excludes.includes('test/'))
})

t.test('filters are normalized', async (t) => {
  const plan = planSearch({ language: ' TS ', symbolKind: 'Function', sourceId: ' work ' }, settings)
  t.equal(plan.language, 'typescript', 'fence tags map to canonical ids')
  t.equal(planSearch({ language: 'python' }, settings).language, 'python')
  t.equal(planSearch({ language: 'klingon' }, settings).language, 'klingon', 'unknown languages pass through (and match nothing)')
  t.equal(plan.symbolKind, 'function')
  t.equal(plan.sourceId, 'work')
  t.equal(planSearch({ language: '  ', sourceId: '' }, settings).language, null)
})

t.test('limit and offset are validated', async (t) => {
  for (const bad of [{ limit: 0 }, { limit: 101 }, { limit: 1.5 }, { limit: Number.NaN }, { offset: -1 }, { offset: 1001 }]) {
    t.throws(() => planSearch(bad, settings), { errorClass: 'UsageError', code: /^invalid_(limit|offset)$/ }, JSON.stringify(bad))
  }
  t.match(planSearch({ limit: 100, offset: 1000 }, settings), { limit: 100, offset: 1000 })
})

t.test('LIKE patterns match prefixes literally', async (t) => {
  const { likePrefixPattern } = await import('../../src/search/sql.js')
  const cases: Array<[string, string]> = [
    ['test/', 'test/%'],
    ['my_dir/', 'my\\_dir/%'],
    ['100%/', '100\\%/%'],
    ['back\\slash/', 'back\\\\slash/%'],
  ]
  for (const [prefix, pattern] of cases) t.equal(likePrefixPattern(prefix), pattern, prefix)
})
