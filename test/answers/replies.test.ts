import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { context, importAll } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'

const turn = (n: number, text: string) => ({
  slug: `chats/court/turn-${n}`,
  content: `---\ntitle: Court chat, turn ${n}\ndate: 2023-09-02\n---\n${text}\n`,
})

// Five turns hold every word of the question and rank first; the one that asks what comes after
// basketball holds one of them and ranks sixth, so its answer is beside none of the first five hits.
const TURNS = [
  ...[1, 3, 5, 7, 9].map((n) => turn(n, `Mara: Life plans of week ${n}: my basketball career plans, a basketball career life.`)),
  ...[2, 4, 6, 8, 10].map((n) => turn(n, `Tim: Noted for week ${n}.`)),
  turn(19, 'Mara: I baked bread this morning.'),
  turn(20, 'Tim: It is wise to think ahead. What comes after basketball?'),
  turn(21, 'Mara: Maybe start a foundation and do charity work with kids.'),
  turn(22, 'Tim: I repotted the basil.'),
]
const QUESTION = 'What plans for life after the basketball career?'

engineTest(t, 'the answer to a later hit that asks joins a large pack, right after its question', async (t, { db }) => {
  await importAll(db, TURNS, null)
  // Keyword search alone: the answer shares no word with the question and comes in only as a reply.
  const pack = await buildContextPack({ search: context(db, undefined) }, QUESTION, { budget: 2000 })
  const asked = pack.items.find((i) => i.slug === 'chats/court/turn-20')
  const answer = pack.items.find((i) => i.slug === 'chats/court/turn-21')
  t.equal(asked?.kind, 'hit', 'the asking turn is a hit')
  t.ok(answer, `the answering turn is in the pack (${pack.items.map((i) => i.slug).join(', ')})`)
  t.equal(answer?.kind, 'adjacent')
  t.equal(answer?.text, 'Mara: Maybe start a foundation and do charity work with kids.')
  t.equal(answer!.n, asked!.n + 1, 'right after the question it answers')
  t.notOk(
    pack.items.some((i) => i.slug === 'chats/court/turn-19'),
    `only the page after an asking hit, not the one before (${pack.items.map((i) => `${i.slug}:${i.kind}`).join(', ')})`,
  )
})

engineTest(t, 'a small pack keeps to the first hits and takes no answers to later ones', async (t, { db }) => {
  await importAll(db, TURNS, null)
  const pack = await buildContextPack({ search: context(db, undefined) }, QUESTION, { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/court/turn-20'),
    'the asking turn is in the pack',
  )
  t.notOk(
    pack.items.some((i) => i.slug === 'chats/court/turn-21'),
    'its answer is not',
  )
})
