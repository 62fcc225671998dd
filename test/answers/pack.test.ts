// test-runner: shares a process
import t from 'tap'
import { buildContextPack, renderItem } from '../../src/answers/index.js'
import { countTokens } from '../../src/embedding/index.js'
import { query } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { seed } from './fixtures.js'

const QUESTION = 'when did we move the probe launch?'

engineTest(t, 'a context pack holds the evidence, numbered, within its budget', async (t, { db }) => {
  const deps = await seed(db)
  const pack = await buildContextPack(deps, QUESTION)
  t.equal(pack.question, QUESTION)
  t.equal(pack.budget, 2000)
  t.same(
    pack.items.map((i) => i.n),
    pack.items.map((_, i) => i + 1),
    'numbered from 1',
  )
  const first = pack.items[0]!
  t.equal(first.slug, 'projects/probe', 'the best hit first')
  t.equal(first.kind, 'hit')
  t.type(first.chunk_id, 'number')
  t.equal(first.line, 1)
  t.match(first.date, /^\d{4}-\d{2}-\d{2}$/)
  const moved = pack.items.find((i) => i.kind === 'timeline' && i.text.includes('moved to April'))
  t.ok(moved, 'the timeline entry that bears on the question')
  t.equal(moved?.date, '2025-02-02', 'a timeline entry carries its own date')
  t.equal(moved?.line, 2)
  t.notOk(
    pack.items.some((i) => i.kind === 'summary' && i.slug === 'projects/antenna'),
    'a summary the hit already holds is not repeated',
  )
  const texts = pack.items.map((i) => i.text)
  t.equal(new Set(texts).size, texts.length, 'no item twice')
  t.equal(
    pack.tokens,
    pack.items.reduce((sum, i) => sum + i.tokens, 0),
  )
  pack.items.forEach((item, i) => t.equal(item.tokens, countTokens(renderItem(item, pack.items[i - 1])), 'counted with the project tokenizer'))

  const small = await buildContextPack(deps, QUESTION, { budget: 100 })
  t.ok(small.tokens <= 100, `within a small budget (${small.tokens})`)
  t.ok(small.items.length >= 1 && small.items.length < pack.items.length)
  await t.rejects(buildContextPack(deps, QUESTION, { budget: 10 }), { code: 'invalid_budget' })
})

engineTest(t, "every page among search's first 25 hits reaches a pack with room for them", async (t, { db }) => {
  const lanterns = Array.from({ length: 26 }, (_, i) => ({
    slug: `notes/lantern-${i}`,
    content: `# Lantern walk ${i}\n\nThe lantern walk of week ${i} went along the river${' and the lantern festival'.repeat(1 + (i % 4))}.\n`,
  }))
  const deps = await seed(db, lanterns)
  const question = 'lantern walk festival'
  const hits = await query(deps.search, question, { limit: 25 })
  const ranked = [...new Set(hits.results.map((h) => h.slug))]
  t.ok(ranked.length >= 21, `search ranks more pages than the pack used to take (${ranked.length})`)
  const pack = await buildContextPack(deps, question, { budget: 8000 })
  const packed = new Set(pack.items.map((i) => i.slug))
  t.same(
    ranked.filter((slug) => !packed.has(slug)),
    [],
    'no ranked page is left out while the budget has room',
  )
})

engineTest(t, 'linked pages and code definitions join the pack', async (t, { db }) => {
  const deps = await seed(db, [{ slug: 'projects/review', content: '# Review\n\nThe launch review is owned by Dana. See [[probe]].\n' }])
  const pack = await buildContextPack(deps, 'who owns the probe launch review schedule?', { budget: 4000 })
  t.ok(
    pack.items.some((i) => i.slug === 'projects/review'),
    'the linked page that bears on it',
  )
  const code = await buildContextPack(deps, 'what does `submitJob` return?')
  const definition = code.items.find((i) => i.kind === 'definition')
  t.ok(definition, 'the definition of a named identifier')
  t.equal(definition?.slug, 'src/queue.ts')
  t.equal(definition?.n, 1, 'definitions of named identifiers come first')
  t.match(definition?.text, /submitJob\(name: string\)/)
  t.equal(definition?.line, 3)
})

engineTest(t, 'a pack never holds another source’s page', async (t, { db }) => {
  const deps = await seed(db, [
    { slug: 'plans/probe-secret', sourceId: 'work', content: '# Probe launch plan\n\nThe probe launch moved to April, says the work plan. See [[antenna]].\n' },
    { slug: 'plans/launch-review', sourceId: 'work', content: '# Launch review\n\nThe probe launch review. See [[probe-secret]].\n' },
  ])
  const work = await buildContextPack(deps, QUESTION, { source: 'work', budget: 8000 })
  t.ok(work.items.length > 0)
  t.same([...new Set(work.items.map((i) => i.source_id))], ['work'], 'only the asked source')
  t.notOk(
    work.items.some((i) => i.slug.startsWith('projects/')),
    'not even through a link to the default source',
  )
  const home = await buildContextPack(deps, QUESTION, { source: 'default', budget: 8000 })
  t.same([...new Set(home.items.map((i) => i.source_id))], ['default'])
  const none = await buildContextPack(deps, QUESTION, { source: 'nowhere' })
  t.same(none.items, [], 'an unknown source holds nothing')
})

// Short pages that all match, in two series far apart so no page is another's neighbour.
const pools = (line: (i: number) => string, count = 40) =>
  Array.from({ length: count }, (_, i) => ({
    slug: `${i % 2 === 0 ? 'beach' : 'shore'}/pool-${i * 10}`,
    content: `---\ntitle: Pool ${i}\n---\n${line(i)}\n`,
  }))

engineTest(t, 'a small pack of chat lines gathers past the hits it expects to hold, and keeps those that fit', async (t, { db }) => {
  const deps = await seed(
    db,
    pools((i) => `${i % 2 === 0 ? 'Ana' : 'Ben'}: Tide pool ${i}${' tide'.repeat(1 + (i % 3))}.`, 52),
  )
  const question = 'tide pool'
  const hits = await query(deps.search, question, { limit: 52 })
  const ranked = [...new Set(hits.results.map((h) => h.slug))]
  t.ok(ranked.length > 45, `search ranks more pages than a 1,000-token pack expects to hold, and more than one and a half times that (${ranked.length})`)
  const pack = await buildContextPack(deps, question, { budget: 1000 })
  const packed = new Set(pack.items.map((i) => i.slug))
  t.ok(pack.tokens <= 1000, `within the budget (${pack.tokens})`)
  t.same(
    ranked.filter((slug) => !packed.has(slug)),
    [],
    'no page of the first 52 hits (past one and a half times the 30 the budget expects) is left out while the budget has room',
  )
})

engineTest(t, 'a small pack of notes keeps the hits it expects to hold', async (t, { db }) => {
  const deps = await seed(
    db,
    pools((i) => `Tide pool ${i}${' tide'.repeat(1 + (i % 3))}.`),
  )
  const pack = await buildContextPack(deps, 'tide pool', { budget: 1000 })
  const hits = pack.items.filter((i) => i.kind === 'hit' && i.slug.includes('/pool-'))
  t.equal(hits.length, 30, `the 30 hits a 1,000-token budget asks for (${hits.length})`)
})
