// test-runner: shares a process
import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { gatherHits } from '../../src/answers/hits.js'
import { namesUndatedPeriod, periodIn, withoutPeriod } from '../../src/answers/period.js'
import { latestDatedDay, query, searchPeriod } from '../../src/search/index.js'
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
  t.equal(periodIn('Which outdoor spot did Joanna visit in May?'), null, 'a month without its year names no period of itself')
  t.equal(periodIn('When did Melanie go camping on June 3?'), null, 'nor a day without its year')
  t.equal(periodIn('May I see the 30 notes on the release?'), null)
  t.equal(periodIn('What is in room 2023b?'), null, 'a number inside a word is no year')
  t.equal(withoutPeriod('What major achievement did Joanna accomplish in January 2022?'), 'What major achievement did Joanna accomplish?')
  t.equal(withoutPeriod('Where was John between August 11 and August 15 2023?'), 'Where was John?')
  t.equal(withoutPeriod('What did Gina find for her store on 1 February, 2023?'), 'What did Gina find for her store?')
  t.equal(withoutPeriod('What did Tim say on 16 November, 2023 about his injury?'), 'What did Tim say about his injury?')
  t.same(periodIn('What happened on 31 February 2023?'), { from: '2023-02-01', to: '2023-02-28' }, 'a day the month does not have leaves its month')
})

t.test('a month or day without its year is the most recent one at or before the day given', async (t) => {
  t.same(periodIn('Which outdoor spot did Joanna visit in May?', '2022-11-11'), { from: '2022-05-01', to: '2022-05-31' })
  t.same(periodIn('What kind of deal did John get in December?', '2024-01-12'), { from: '2023-12-01', to: '2023-12-31' }, 'a month after the latest day is of the year before')
  t.same(periodIn('What did I plant last May?', '2023-05-20'), { from: '2023-05-01', to: '2023-05-31' }, 'the month of the latest day itself')
  t.same(periodIn('Which country was Tim visiting in the second week of November?', '2024-01-12'), { from: '2023-11-01', to: '2023-11-30' })
  t.same(periodIn('What did we cook during early Sept.?', '2024-01-12'), { from: '2023-09-01', to: '2023-09-30' }, 'an abbreviation')
  t.same(periodIn('When did Melanie go camping on June 3?', '2023-06-02'), { from: '2022-06-03', to: '2022-06-03' }, 'a day after the latest day is of the year before')
  t.same(periodIn('What changed between November and February?', '2024-03-01'), { from: '2023-11-01', to: '2024-02-29' }, 'a range over the new year')
  t.same(periodIn('What happened from May to July?', '2023-08-01'), { from: '2023-05-01', to: '2023-07-31' })
  t.same(periodIn('Where was John between August 11 and August 15?', '2023-09-01'), { from: '2023-08-11', to: '2023-08-15' })
  t.same(periodIn('What did Tom and May cook in June?', '2023-08-01'), { from: '2023-06-01', to: '2023-06-30' }, '"and May" outside a range is a name')
  t.same(periodIn('What did Nate share in Feb, 2022?', '2024-01-01'), { from: '2022-02-01', to: '2022-02-28' }, 'a written year wins')
  t.equal(periodIn('May I see the 30 notes on the release?', '2024-01-01'), null, 'a modal verb is no month')
  t.equal(periodIn('What happened in may?', '2024-01-01'), null, 'nor a month written in lower case')
  t.equal(periodIn('What did Joanna visit in May?', null), null, 'nor anything without a day to count back from')
  t.ok(namesUndatedPeriod('Which outdoor spot did Joanna visit in May?'))
  t.ok(namesUndatedPeriod('When did Melanie go camping on June 3?'))
  t.notOk(namesUndatedPeriod('What did Nate share in Feb, 2022?'), 'a period with its year needs no day')
  t.notOk(namesUndatedPeriod('What did Tom and May cook?'))
  t.equal(withoutPeriod('Which outdoor spot did Joanna visit in May?'), 'Which outdoor spot did Joanna visit?')
  t.equal(withoutPeriod('What did Tom and May cook in June?'), 'What did Tom and May cook?')
  t.equal(withoutPeriod('May I see the notes?'), 'May I see the notes?')
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

// Two Mays: the question counts back from the latest dated page, to the May of 2023.
const TWO_MAYS = [
  ...Array.from({ length: 40 }, (_, i) => ({
    slug: `chats/outdoors/s${i + 2}`,
    content: `---\ntitle: Outdoors chat ${i + 2}\ndate: 2023-0${1 + (i % 4)}-1${i % 10}\n---\nAna: An outdoor spot to visit, a new one, number ${i}.\n`,
  })),
  { slug: 'chats/outdoors/may-2023', content: '---\ntitle: Outdoors chat May 2023\ndate: 2023-05-14\n---\nAna: We spent Saturday walking the ridge above Lake Tahoe.\n' },
  { slug: 'chats/outdoors/may-2022', content: '---\ntitle: Outdoors chat May 2022\ndate: 2022-05-14\n---\nAna: The cat knocked the tree over again.\n' },
  { slug: 'chats/outdoors/last', content: '---\ntitle: Outdoors chat last\ndate: 2023-08-02\n---\nAna: Back at work this week.\n' },
]

engineTest(t, 'a month named without its year is the most recent one the brain holds pages of', async (t, { db }) => {
  const model = bagOfWordsEmbedder('test-period')
  await importAll(db, TWO_MAYS, model)
  const search = context(db, model)
  const question = 'Which outdoor spot did Ana visit in May?'
  t.equal(await latestDatedDay(search), '2023-08-02')
  t.equal(await latestDatedDay(search, 'no-such-source'), null, 'a source without dated pages has no latest day')
  t.same(periodIn(question, await latestDatedDay(search)), { from: '2023-05-01', to: '2023-05-31' })
  const plain = await query(search, question, { limit: 30 })
  t.notOk(
    plain.results.some((r) => r.slug === 'chats/outdoors/may-2023'),
    'the brain-wide search does not reach the May turn',
  )
  const gathered = await gatherHits(search, question, 30, null)
  const found = gathered.hits.map((h) => h.slug)
  t.ok(found.includes('chats/outdoors/may-2023'), 'the May turn of the latest year is gathered')
  t.notOk(found.includes('chats/outdoors/may-2022'), 'the May of the year before is not searched')
  const pack = await buildContextPack({ search }, question, { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/outdoors/may-2023' && i.text.includes('Tahoe')),
    'and reaches the pack',
  )
})

// The trip is told two days after the days the question names.
const TOLD_AFTER = [
  ...Array.from({ length: 40 }, (_, i) => ({
    slug: `chats/trips/s${i}`,
    content: `---\ntitle: Trips chat ${i}\ndate: 2023-0${3 + (i % 4)}-1${i % 10}\n---\nJohn: Where was I in between the trips? Where I was, was home, number ${i}.\n`,
  })),
  { slug: 'chats/trips/after', content: '---\ntitle: Trips chat after\ndate: 2023-08-17\n---\nJohn: Back from the lake cabin, the drive home took nine hours.\n' },
  { slug: 'chats/trips/early-august', content: '---\ntitle: Trips chat early August\ndate: 2023-08-03\n---\nJohn: Our plum tree finally fruited.\n' },
  { slug: 'chats/trips/much-later', content: '---\ntitle: Trips chat much later\ndate: 2023-08-30\n---\nJohn: The garden needs rain.\n' },
]

engineTest(t, "an event told in the days after the period named is searched with the period's pages", async (t, { db }) => {
  const model = bagOfWordsEmbedder('test-period')
  await importAll(db, TOLD_AFTER, model)
  const search = context(db, model)
  const question = 'Where was John between August 11 and August 15 2023?'
  const plain = await query(search, question, { limit: 30 })
  t.notOk(
    plain.results.some((r) => r.slug === 'chats/trips/after'),
    'the brain-wide search does not reach the telling',
  )
  const gathered = await gatherHits(search, question, 30, null)
  const found = gathered.hits.map((h) => h.slug)
  t.ok(found.includes('chats/trips/after'), 'the page two days after the period is gathered')
  t.notOk(found.includes('chats/trips/much-later'), 'a page two weeks after it is not')
  const pack = await buildContextPack({ search }, question, { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/trips/after' && i.text.includes('lake cabin')),
    'and reaches the pack',
  )
  const july = await gatherHits(search, 'Where was John in July 2023?', 30, null)
  t.notOk(
    july.hits.some((h) => h.slug === 'chats/trips/early-august'),
    'a month is not read past its end',
  )
  const early = await gatherHits(search, 'Where was John between July 25 and July 31 2023?', 30, null)
  t.ok(
    early.hits.some((h) => h.slug === 'chats/trips/early-august'),
    'while the days at its end are',
  )
})
