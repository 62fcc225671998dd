// test-runner: shares a process
import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { interleave, withoutNames } from '../../src/answers/hits.js'
import { chatSpeaker, speakersAsked } from '../../src/answers/speakers.js'
import { asStatement } from '../../src/answers/text.js'
import { importPages } from '../../src/pages/index.js'
import { query } from '../../src/search/index.js'
import { bagOfWordsEmbedder, context, importAll } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'

t.test('a chat line says who speaks, and a question which speakers it is about', async (t) => {
  t.same(chatSpeaker('Piet: We paddled to the mill.'), { name: 'Piet', label: 'Piet: ' })
  t.same(chatSpeaker('**Anna de Vries**, 14:02: see you there'), { name: 'Anna de Vries', label: '**Anna de Vries**, 14:02: ' }, 'a chat export line')
  t.equal(chatSpeaker('Note: nothing here\nacross two lines'), null, 'a passage of several lines is no chat line')
  t.equal(chatSpeaker('the plan: paddle'), null)
  t.same([...speakersAsked("What is Piet's favourite river?", ['Piet', 'Odile'])], ['Piet'])
  t.same([...speakersAsked('Where did Anna and Odile meet?', ['Anna de Vries', 'Odile', 'Piet'])], ['Anna de Vries', 'Odile'], 'by first name too')
  t.same([...speakersAsked('where is the mill?', ['Piet'])], [])
  t.equal(withoutNames("What is Piet's favourite river, Piet?", new Set(['Piet'])), 'What is favourite river, ?')
  t.equal(withoutNames('Did Pieter call?', new Set(['Piet'])), 'Did Pieter call?', 'a longer name is another name')
})

t.test('a question put as the statement its answer would be worded in', async (t) => {
  t.equal(asStatement('What kind of classes has Jolene joined?'), 'classes Jolene joined')
  t.equal(asStatement('What activities does partake in?'), 'activities partake in')
  t.equal(asStatement('How many dogs does Andrew have?'), 'many dogs Andrew have', 'the first auxiliary only')
  t.equal(asStatement('Did and grow up with a pet dog?'), 'grow up with a pet dog', 'a joiner left where names were taken out')
  t.equal(asStatement('Would be open to moving abroad?'), 'be open to moving abroad')
  t.equal(asStatement('Where is the mill'), 'the mill')
  t.equal(asStatement('What is it?'), 'What is it?', 'nothing left to say: as written')
  t.equal(asStatement('Wo ist die Mühle?'), 'Wo ist die Mühle', 'another language keeps its words')
})

t.test('two lists merged one of the first to two of the second, without repeats', async (t) => {
  const hits = (...ids: number[]) => ids.map((chunk_id) => ({ chunk_id }))
  const ids = (list: Array<{ chunk_id: number }>) => list.map((h) => h.chunk_id)
  t.same(ids(interleave(hits(1, 2, 3), hits(11, 12, 2, 13), 2, 10)), [1, 11, 12, 2, 13, 3])
  t.same(ids(interleave(hits(1, 2, 3), hits(11, 12, 13, 14), 2, 4)), [1, 11, 12, 2], 'at most the number asked')
  t.same(ids(interleave(hits(1), hits(11, 12, 13, 14, 15), 2, 10)), [1, 11, 12, 13, 14, 15], 'the second list goes on when the first ends')
})

// A model that knows "unwind" and "relax" mean the same, as the shipped one roughly does.
const embedder = () => bagOfWordsEmbedder('test-unwind', { unwind: 'relax' })

const PAGES = [
  // Forty lines that say little but the name.
  ...Array.from({ length: 40 }, (_, i) => ({
    slug: `chats/club/s1-${i + 1}`,
    content: `---\ntitle: Club chat, turn ${i + 1}\ndate: 2023-07-03\n---\n${i % 2 === 0 ? `Odile: Piet! Piet, lovely, Piet number ${i}.` : `Piet: Odile, Piet here, Piet again ${i}.`}\n`,
  })),
  { slug: 'chats/club/s2-1', content: '---\ntitle: Club chat, session 2\ndate: 2023-08-14\n---\nPiet: Kayaking on the river is how I relax after work.\n' },
]

engineTest(t, 'a question about one speaker also searches its facet without the name', async (t, { db }) => {
  const model = embedder()
  await importAll(db, PAGES, model)
  const search = context(db, model)
  const question = 'What does Piet do to unwind?'
  const plain = await query(search, question, { limit: 30 })
  t.notOk(
    plain.results.some((r) => r.slug === 'chats/club/s2-1'),
    'asked as written, the lines naming Piet fill the first 30 hits',
  )
  const pack = await buildContextPack({ search }, question, { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/club/s2-1'),
    'the line about unwinding reaches the pack',
  )
  t.ok(
    pack.items.some((i) => i.slug.startsWith('chats/club/s1-')),
    'beside the lines about Piet',
  )
})

// Twenty lines of the other speaker about unwinding, which say the question's word outright.
const OTHERS = Array.from({ length: 20 }, (_, i) => ({
  slug: `chats/club/s3-${i + 1}`,
  content: `---\ntitle: Club chat, session 3, turn ${i + 1}\ndate: 2023-09-01\n---\nOdile: Puzzles are how I unwind, with tea, a blanket, the radio, the garden and the cat ${i + 1}.\n`,
}))

engineTest(t, "of the search without the name, only the named speaker's own lines are merged", async (t, { db }) => {
  const model = embedder()
  await importAll(db, [...PAGES, ...OTHERS], model)
  const search = context(db, model)
  const plain = await query(search, 'What does Piet do to unwind?', { limit: 30 })
  t.notOk(
    plain.results.some((r) => r.slug === 'chats/club/s2-1'),
    "asked as written, Piet's line about unwinding is not among the first 30 hits",
  )
  const facet = await query(search, 'What does do to unwind?', { limit: 30 })
  const at = facet.results.findIndex((r) => r.slug === 'chats/club/s2-1')
  t.ok(at >= 15 || at < 0, `without the name, the other speaker's lines rank first (Piet's line at ${at})`)
  const pack = await buildContextPack({ search }, 'What does Piet do to unwind?', { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/club/s2-1'),
    "Piet's own line about unwinding reaches the pack",
  )
})

// Ninety lines in which Piet asks about Odile's Sundays (more than a pack reads), and one in which he
// tells how he relaxes.
const ASKING = [
  ...Array.from({ length: 90 }, (_, i) => ({
    slug: `chats/club/s4-${i + 1}`,
    content: `---\ntitle: Club chat, session 4, turn ${i + 1}\ndate: 2023-10-02\n---\nPiet: What does Odile do on Sundays? Does she go out?\n`,
  })),
  { slug: 'chats/club/s5-1', content: '---\ntitle: Club chat, session 5\ndate: 2023-10-09\n---\nPiet: To relax after a long week at the office I paddle the river with my old friends from school.\n' },
]

engineTest(t, "a speaker's facet is searched as the statement its answer would be, not as a question", async (t, { db }) => {
  // The bag of words counts "what" and "does" as a small sentence encoder weighs a question's
  // form: the lines that ask come nearest a question.
  const model = embedder()
  await importPages(
    db,
    ASKING.map((page) => ({ slug: page.slug, kind: 'markdown' as const, content: page.content })),
    { embedder: model },
  )
  const search = context(db, model)
  const asked = await query(search, 'What does do to unwind?', { limit: 30 })
  t.notOk(
    asked.results.some((r) => r.slug === 'chats/club/s5-1'),
    "asked as a question, Piet's own questions fill the first 30 hits",
  )
  const told = await query(search, asStatement('What does do to unwind?'), { limit: 30 })
  t.equal(told.results[0]?.slug, 'chats/club/s5-1', 'as a statement, the line that tells ranks first')
  const pack = await buildContextPack({ search }, 'What does Piet do to unwind?', { budget: 1000 })
  t.ok(
    pack.items.some((i) => i.slug === 'chats/club/s5-1'),
    "Piet's line about relaxing reaches the pack",
  )
})
