// test-runner: shares a process
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

const dance = (n: number, text: string) => ({
  slug: `chats/studio/turn-${n}`,
  content: `---\ntitle: Studio chat, turn ${n}\ndate: 2023-06-19\n---\n${text}\n`,
})

// Jon's five lines hold every word of the question and rank first. Gina brings up his news in the
// sixth hit, which is no question; Jon's reply to it shares none of the question's words but his
// name, which sixty other lines of his say more often, so it is no hit of its own.
const STUDIO = [
  ...[1, 3, 5, 7, 9].map((n) => dance(n, `Jon: Week ${n} at the dance studio: opening night plans, the dance studio opening night, how I feel.`)),
  ...[2, 4, 6, 8, 10].map((n) => dance(n, `Gina: Noted for week ${n}.`)),
  dance(19, 'Jon: I baked bread this morning.'),
  dance(20, 'Gina: Congrats, Jon! The opening night of your dance studio is tomorrow.'),
  dance(21, "Jon: Thanks! I'm excited and ready to give it my best."),
  dance(22, 'Gina: I repotted the basil.'),
  ...Array.from({ length: 60 }, (_, i) => ({
    slug: `chats/roll/day-${i + 1}`,
    content: `---\ntitle: Roll call, day ${i + 1}\ndate: 2023-05-0${(i % 9) + 1}\n---\nJon: Jon, Jon and Jon again on roll call ${i + 1}.\n`,
  })),
]

// Both questions read the same brain: it is imported once per engine.
engineTest(t, 'replies to a later hit that does not ask', async (t, { db }) => {
  await importAll(db, STUDIO, null)

  t.test("the named speaker's reply to another speaker's hit joins even a small pack, right after it", async (t) => {
    const pack = await buildContextPack({ search: context(db, undefined) }, 'How does Jon feel about the opening night of his dance studio?', { budget: 1000 })
    const said = pack.items.find((i) => i.slug === 'chats/studio/turn-20')
    const reply = pack.items.find((i) => i.slug === 'chats/studio/turn-21')
    t.equal(said?.kind, 'hit', "Gina's line is a hit")
    t.ok(reply, `Jon's reply is in the pack (${pack.items.map((i) => `${i.slug}:${i.kind}`).join(', ')})`)
    t.equal(reply?.kind, 'adjacent')
    t.equal(reply!.n, said!.n + 1, 'right after the line it answers')
    t.notOk(
      pack.items.some((i) => i.slug === 'chats/studio/turn-19'),
      'not the page before it',
    )
  })

  t.test('a question naming no speaker takes no reply to a later hit that does not ask', async (t) => {
    for (const budget of [1000, 2000]) {
      const pack = await buildContextPack({ search: context(db, undefined) }, 'How was the opening night of the dance studio?', { budget })
      t.ok(
        pack.items.some((i) => i.slug === 'chats/studio/turn-20'),
        `the other line is in the pack at ${budget} tokens`,
      )
      t.notOk(
        pack.items.some((i) => i.slug === 'chats/studio/turn-21'),
        `the reply is not at ${budget} tokens`,
      )
    }
  })
})
