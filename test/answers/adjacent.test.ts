// test-runner: shares a process
import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { adjacentSlugs } from '../../src/answers/adjacent.js'
import { bagOfWordsEmbedder, context, importAll } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'
import { seed } from './fixtures.js'

const turn = (n: number, text: string, sourceId?: string) => ({
  slug: `chats/garden-club/turn-${n}`,
  content: `---\ntitle: Garden club, turn ${n}\ndate: 2023-07-03\n---\n${text}\n`,
  ...(sourceId !== undefined ? { sourceId } : {}),
})

t.test('the slugs next to a page in its series', async (t) => {
  t.same(adjacentSlugs('chats/club/turn-7'), ['chats/club/turn-6', 'chats/club/turn-8'])
  t.same(adjacentSlugs('daily/2024-05-09'), ['daily/2024-05-08', 'daily/2024-05-10'], 'a padded number keeps its width')
  t.same(adjacentSlugs('conv/d4-10.md'), ['conv/d4-9.md', 'conv/d4-11.md'], 'the last number, whatever follows it')
  t.same(adjacentSlugs('chats/club/turn-0'), ['chats/club/turn-1'], 'no number below zero')
  t.same(adjacentSlugs('notes/bread'), [], 'a page outside any series')
})

engineTest(t, 'the turn after a hit joins the pack though it shares no word with the question', async (t, { db }) => {
  await seed(db, [
    turn(1, 'Odile: The tomatoes finally came up this week.'),
    turn(2, 'Odile: How was your camping trip with the scouts? Where did you pitch the tents?'),
    turn(3, 'Piet: Up by the lake in the hills, three nights of rain.'),
    turn(4, 'Odile: I should repot the basil soon.'),
    turn(3, 'Piet: A page of another source is never its neighbour.', 'work'),
  ])
  // Keyword search alone, so the answering turn can come in only beside its hit.
  const pack = await buildContextPack({ search: context(db, undefined) }, 'Where did the scouts pitch their tents on the camping trip?', { budget: 1000 })
  const answer = pack.items.find((i) => i.slug === 'chats/garden-club/turn-3' && i.source_id === 'default')
  t.ok(answer, 'the answering turn is in the pack')
  t.equal(answer?.kind, 'adjacent')
  t.equal(answer?.text, 'Piet: Up by the lake in the hills, three nights of rain.')
  t.equal(answer?.date, '2023-07-03')
  const hit = pack.items.find((i) => i.slug === 'chats/garden-club/turn-2')
  t.equal(hit?.kind, 'hit', 'the turn that shares the words is a hit')
  t.ok(hit!.n < answer!.n, 'after the hit that brought it')
  t.notOk(
    pack.items.some((i) => i.source_id === 'work'),
    'the same slug in another source is not next to it',
  )
  t.notOk(
    pack.items.some((i) => i.kind === 'adjacent' && i.slug === 'chats/garden-club/turn-2'),
    'a hit page is not brought again as a neighbour',
  )
})

engineTest(t, 'a hit whose dates were resolved is not repeated as its page summary', async (t, { db }) => {
  const deps = await seed(db, [turn(5, 'Odile: I went to the seed swap at the library yesterday.')])
  const pack = await buildContextPack(deps, 'When did Odile go to the seed swap at the library?', { budget: 1000 })
  const items = pack.items.filter((i) => i.slug === 'chats/garden-club/turn-5')
  t.same(
    items.map((i) => i.kind),
    ['hit'],
    'one item for the turn',
  )
  t.match(items[0]?.text, /yesterday \(2023-07-02\)/)
})

engineTest(t, 'with vectors the pack finds a turn that shares no word with the question', async (t, { db }) => {
  // A model that knows "kids" and "children" mean the same, as the shipped one roughly does.
  const embedder = bagOfWordsEmbedder('test-kids', { kid: 'child', children: 'child' })
  await importAll(
    db,
    [
      { slug: 'chats/park/turn-1', content: 'Mara: The kids loved the clay workshop on Saturday.\n' },
      { slug: 'notes/compost', content: 'The compost heap needs turning every week.\n' },
      { slug: 'notes/bread', content: 'Knead the dough and bake it hot.\n' },
    ],
    embedder,
  )
  const question = 'What did the children enjoy?'
  const hybrid = await buildContextPack({ search: context(db, embedder) }, question, { budget: 500 })
  t.ok(
    hybrid.items.some((i) => i.slug === 'chats/park/turn-1'),
    'found through its meaning',
  )
  t.equal(hybrid.notice, null, 'the pack ran hybrid')
  const keywordOnly = await buildContextPack({ search: context(db, undefined) }, question, { budget: 500 })
  t.notOk(
    keywordOnly.items.some((i) => i.slug === 'chats/park/turn-1'),
    'keyword search alone cannot find it',
  )
  t.match(keywordOnly.notice, /keyword-only/)
})

engineTest(t, 'a turn next to the first hit keeps its place though the search ranks it far down', async (t, { db }) => {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  await seed(db, [
    turn(2, 'Odile: How was your camping trip with the scouts? Where did you pitch the tents?'),
    turn(3, 'Piet: Up by the lake in the hills, three nights of rain on the tents.'),
    // Pages that share more of the question's words than the answering turn does.
    ...Array.from({ length: 28 }, (_, i) => ({
      slug: `notes/gear-${letters[i % 26]}${letters[Math.floor(i / 26)]}`,
      content: `---\ntitle: Gear list\n---\nTents for the camping trip, list ${letters[i % 26]}: poles, pegs and tents.\n`,
    })),
  ])
  const search = context(db, undefined)
  const question = 'Where did the scouts pitch their tents on the camping trip?'
  const pack = await buildContextPack({ search }, question, { budget: 500 })
  t.equal(pack.items[0]?.slug, 'chats/garden-club/turn-2', 'the turn that shares the words leads')
  const answer = pack.items.find((i) => i.slug === 'chats/garden-club/turn-3')
  t.ok(answer, 'the answering turn, itself a hit ranked below the gear lists, is in the pack')
  t.ok(
    pack.items.some((i) => i.slug.startsWith('notes/gear-')),
    'beside the gear lists that outrank it on its own',
  )
})

engineTest(t, 'a small pack brings the turns around fewer of its first hits than a large one', async (t, { db }) => {
  // Five conversations, each a turn that shares the question's words and a reply that shares none.
  await seed(
    db,
    [1, 2, 3, 4, 5].flatMap((k) => [
      { slug: `chats/trip-${'abcde'[k - 1]}/turn-1`, content: `---\ntitle: Trip ${k}, turn 1\ndate: 2023-07-0${k}\n---\nOdile: The scouts pitched the tents by the lake.\n` },
      { slug: `chats/trip-${'abcde'[k - 1]}/turn-2`, content: `---\ntitle: Trip ${k}, turn 2\ndate: 2023-07-0${k}\n---\nPiet: Three nights of rain there, number ${k}.\n` },
    ]),
  )
  const search = context(db, undefined)
  const question = 'Where did the scouts pitch the tents?'
  const replies = async (budget: number) => (await buildContextPack({ search }, question, { budget })).items.filter((i) => i.kind === 'adjacent').length
  t.equal(await replies(1000), 3, 'at 1,000 tokens the turns after the first three hits')
  t.equal(await replies(2000), 5, 'at 2,000 tokens after the first five')
  t.equal(await replies(500), 1, 'at 500 tokens after the first')
})
