// test-runner: shares a process
import t from 'tap'
import { buildContextPack } from '../../src/answers/index.js'
import { contentTerms } from '../../src/answers/text.js'
import { trimToQuestion } from '../../src/answers/trim.js'
import { context, importAll } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'

const LONG =
  'Piet: Hey Odile, it has been a hectic week at the workshop with all the orders. The kayak I built last winter finally went on the water on Sunday. We paddled it down the river to the old mill and back. Anyway, how is your garden doing?'

/** The same passage as a note's paragraph, with no speaker. */
const PROSE = LONG.slice('Piet: '.length)

t.test('a long passage is cut to the sentences that share a word with the question', async (t) => {
  t.equal(
    trimToQuestion(PROSE, contentTerms('Where did Piet paddle the kayak?')),
    '… The kayak I built last winter finally went on the water on Sunday. We paddled it down the river to the old mill and back. …',
    "a note's paragraph keeps every sentence that shares a word, each run left out marked once",
  )
  t.equal(
    trimToQuestion(LONG, contentTerms('Where did Piet paddle the kayak?')),
    'Piet: … The kayak I built last winter finally went on the water on Sunday. …',
    'a chat line keeps its speaker and the one sentence that shares the most, the longer of two that share as much',
  )
  t.equal(
    trimToQuestion(LONG, contentTerms('Where did Piet paddle the kayak down the river?')),
    'Piet: … We paddled it down the river to the old mill and back. …',
    'the sentence that shares more words wins over the first',
  )
  t.equal(
    trimToQuestion('Calvin: Hey Dave, good to hear from you! That engine swap you did on the old Mustang sounds like hard work. Did it start first time?', contentTerms('Can Dave fix engines?')),
    'Calvin: … That engine swap you did on the old Mustang sounds like hard work. …',
    'a greeting that names the person asked about gives way to the sentence that tells',
  )
  t.equal(
    trimToQuestion(LONG, contentTerms('What did Odile grow?')),
    'Piet: Hey Odile, it has been a hectic week at the workshop with all the orders. …',
    'a question whose words only its opening shares',
  )
  t.equal(trimToQuestion(LONG, contentTerms('Who bakes bread?')), 'Piet: Hey Odile, it has been a hectic week at the workshop with all the orders. …', 'no sentence shares a word: the opening stays')
  t.equal(trimToQuestion('Piet: The kayak went in. We paddled to the mill.', contentTerms('kayak')), null, 'a passage of at most 60 characters stays whole')
  const medium = 'Piet: The kayak went on the water on Sunday. We paddled it to the mill.'
  t.equal(trimToQuestion(medium, contentTerms('kayak')), 'Piet: The kayak went on the water on Sunday. …', 'a passage under 160 characters is cut to the sentences that share a word')
  t.equal(trimToQuestion(medium, contentTerms('Who bakes bread?')), null, 'and stays whole when none shares one: its opening alone would say nothing')
  t.equal(trimToQuestion(`${LONG}\n- a list item about the kayak`, contentTerms('kayak')), null, 'several lines (a list, a table, code) stay whole')
  t.equal(trimToQuestion(PROSE, contentTerms('workshop kayak paddled river garden week')), null, 'nothing to cut')
})

engineTest(t, 'a long turn in a pack holds the sentences that bear on the question', async (t, { db }) => {
  await importAll(
    db,
    [
      { slug: 'chats/club/turn-1', content: `---\ntitle: Club chat, turn 1\ndate: 2023-07-03\n---\n${LONG}\n` },
      { slug: 'chats/club/turn-2', content: '---\ntitle: Club chat, turn 2\ndate: 2023-07-03\n---\nOdile: What a trip! The kayak sounds lovely.\n' },
    ],
    null,
  )
  const pack = await buildContextPack({ search: context(db, undefined) }, 'Where did Piet paddle the kayak?', { budget: 500 })
  const long = pack.items.find((i) => i.slug === 'chats/club/turn-1')
  t.equal(long?.text, 'Piet: … The kayak I built last winter finally went on the water on Sunday. …')
  t.equal(pack.items.find((i) => i.slug === 'chats/club/turn-2')?.text, 'Odile: What a trip! The kayak sounds lovely.', 'a short turn whole')
})
