import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { withoutNames } from '../../src/answers/hits.js'
import { chatSpeaker, speakersAsked } from '../../src/answers/speakers.js'
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
