import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { gatherHits } from '../../src/answers/hits.js'
import { periodIn, withoutPeriod } from '../../src/answers/period.js'
import { query, searchPeriod } from '../../src/search/index.js'
import { bagOfWordsEmbedder, context, importAll } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'

t.test('a question names a month, a year, a day or the days between two dates', async (t) => {
  t.same(periodIn('What major achievement did Joanna accomplish in January 2022?'), { from: '2022-01-01', to: '2022-01-31' })
  t.same(periodIn('What did Nate share in Feb, 2024?'), { from: '2024-02-01', to: '2024-02-29' }, 'an abbreviated month of a leap year')
  t.same(periodIn('How many times has Melanie gone to the beach in 2023?'), { from: '2023-01-01', to: '2023-12-31' })
  t.same(periodIn('What painting did Melanie show on October 13, 2023?'), { from: '2023-10-13', to: '2023-10-13' })
  t.same(periodIn('What did Gina find on 1 February, 2023?'), { from: '2023-02-01', to: '2023-02-01' })
  t.same(periodIn('What book did Tim finish on 8th December, 2023?'), { from: '2023-12-08', to: '2023-12-08' })
  t.same(periodIn('Where was the picture shared on December 1,2023 taken?'), { from: '2023-12-01', to: '2023-12-01' })
  t.same(periodIn('Where was John between August 11 and August 15 2023?'), { from: '2023-08-11', to: '2023-08-15' }, 'the first day takes the year of the second')
  t.same(periodIn('What changed between March 2021 and May 2021?'), { from: '2021-03-01', to: '2021-05-31' })
  t.same(periodIn('Was the first half of September 2022 a good month?'), { from: '2022-09-01', to: '2022-09-30' })
  t.equal(periodIn('Which outdoor spot did Joanna visit in May?'), null, 'a month without its year names no period')
  t.equal(periodIn('When did Melanie go camping on June 3?'), null, 'nor a day without its year')
  t.equal(periodIn('May I see the 30 notes on the release?'), null)
  t.equal(periodIn('What is in room 2023b?'), null, 'a number inside a word is no year')
  t.equal(withoutPeriod('What major achievement did Joanna accomplish in January 2022?'), 'What major achievement did Joanna accomplish?')
  t.equal(withoutPeriod('Where was John between August 11 and August 15 2023?'), 'Where was John?')
  t.equal(withoutPeriod('What did Gina find for her store on 1 February, 2023?'), 'What did Gina find for her store?')
  t.equal(withoutPeriod('What did Tim say on 16 November, 2023 about his injury?'), 'What did Tim say about his injury?')
  t.same(periodIn('What happened on 31 February 2023?'), { from: '2023-02-01', to: '2023-02-28' }, 'a day the month does not have leaves its month')
})

// The evidence shares no word with the question, while forty pages of other months do.
const PAGES = [
  ...Array.from({ length: 40 }, (_, i) => ({
    slug: `chats/writing/s${i + 2}`,
    content: `---\ntitle: Writing chat ${i + 2}\ndate: 2022-0${3 + (i % 6)}-1${i % 10}\n---\nAnother achievement accomplished at the studio, a major one, number ${i}.\n`,
  })),
  { slug: 'chats/writing/s1-a', content: '---\ntitle: Writing chat 1a\ndate: 2022-01-21\n---\nI finally finished my first full screenplay last Friday.\n' },
  { slug: 'chats/writing/s1-b', content: '---\ntitle: Writing chat 1b\ndate: 2022-01-21\n---\nNate: Nice, the weather was great for it too.\n' },
  { slug: 'chats/writing/s0', content: '---\ntitle: Writing chat 0\ndate: 2021-12-30\n---\nNate: The cat knocked the tree over again.\n' },
]

engineTest(t, 'a question naming a month finds a page of that month that shares no word with it', async (t, { db }) => {
  const model = bagOfWordsEmbedder('test-period')
  await importAll(db, PAGES, model)
  const search = context(db, model)
  const question = 'What major achievement was accomplished in January 2022?'
  const plain = await query(search, question, { limit: 30 })
  t.notOk(
    plain.results.some((r) => r.slug === 'chats/writing/s1-a'),
    'the brain-wide search does not reach it',
  )
  const dated = await searchPeriod(search, question, { from: '2022-01-01', to: '2022-01-31' }, { limit: 10 })
  t.same(dated.map((r) => r.slug).sort(), ['chats/writing/s1-a', 'chats/writing/s1-b'], "the period's pages, and only those")
  const pack = await buildContextPack({ search }, question, { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/writing/s1-a' && i.text.includes('screenplay')),
    'the turn of that month reaches the pack',
  )
  t.ok(
    pack.items.some((i) => i.slug.startsWith('chats/writing/s') && i.text.includes('achievement')),
    'beside the pages that share its words',
  )
  const keywordOnly = await searchPeriod(context(db, undefined), question, { from: '2022-01-01', to: '2022-01-31' }, { limit: 10 })
  t.same(keywordOnly.map((r) => r.slug).sort(), ['chats/writing/s1-a', 'chats/writing/s1-b'], 'without an embedder, ranked on words')
})

engineTest(t, 'a question that names no period gathers the hits of the search alone', async (t, { db }) => {
  const model = bagOfWordsEmbedder('test-period')
  await importAll(db, PAGES, model)
  const search = context(db, model)
  const question = 'What major achievement was accomplished?'
  const plain = await query(search, question, { limit: 30 })
  const gathered = await gatherHits(search, question, 30, null)
  t.same(
    gathered.hits.map((h) => h.chunk_id),
    plain.results.map((r) => r.chunk_id),
  )
  const pack = await buildContextPack({ search }, question, { budget: 1000 })
  t.notOk(
    pack.items.some((i) => i.slug === 'chats/writing/s1-a'),
    'the page sharing no word stays out',
  )
})

engineTest(t, "a period's pages are found through the index of their dates", async (t, { db }) => {
  await importAll(db, PAGES, null)
  // The condition searchPeriod writes; with sequential scans priced out the index must serve it.
  const plan = await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_seqscan = off')
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT p.id FROM pages p WHERE p.frontmatter->>'date' ~ '^\\d{4}-\\d{2}-\\d{2}' AND left(p.frontmatter->>'date', 10) BETWEEN '2022-01-01' AND '2022-01-31'`,
    )
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  })
  t.match(plan, /pages_written_on_idx/)
})
