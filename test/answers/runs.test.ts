// test-runner: shares a process
import t from 'tap'
import { buildContextPack, renderItem, renderItems } from '../../src/answers/index.js'
import { countTokens } from '../../src/embedding/index.js'
import { context, importAll } from '../search/helpers.js'
import { engineTest } from '../helpers/engines.js'

const turn = (session: number, n: number, date: string, text: string) => ({
  slug: `chats/club/s${session}-${n}`,
  content: `---\ntitle: Club chat, session ${session}, turn ${n}\ndate: ${date}\n---\n${text}\n`,
})

const TURNS = [
  turn(1, 1, '2023-07-03', 'Odile: Did you get to the regatta on the lake in the end?'),
  turn(1, 2, '2023-07-03', 'Piet: We did, the regatta was windy and two boats capsized near the lake pier.'),
  turn(1, 3, '2023-07-03', 'Odile: Were you on the regatta committee boat again?'),
  turn(1, 4, '2023-07-03', 'Piet: Yes, timing the regatta starts from the committee boat.'),
  turn(1, 5, '2023-07-03', 'Odile: I repotted the basil.'),
  turn(2, 1, '2023-08-14', 'Odile: Next regatta is in September, on the same lake.'),
]

engineTest(t, 'turns of one session share one heading and keep their own number and slug', async (t, { db }) => {
  await importAll(db, TURNS, null)
  const pack = await buildContextPack({ search: context(db, undefined) }, 'regatta on the lake committee boat', { budget: 1000 })
  const session = pack.items.filter((i) => i.slug.startsWith('chats/club/s1-'))
  t.ok(session.length >= 4, `the session's turns are in the pack (${session.map((i) => i.slug).join(', ')})`)
  t.same(
    session.map((i) => i.slug),
    [...session].sort((a, b) => a.slug.localeCompare(b.slug)).map((i) => i.slug),
    'in the order they were said',
  )
  const at = pack.items.indexOf(session[0]!)
  t.same(
    session.map((i) => i.n),
    session.map((_, k) => at + k + 1),
    'one after the other, numbered in turn',
  )
  const text = renderItems(pack.items)
  t.match(text, `[${session[0]!.n}] ${session[0]!.slug} 2023-07-03\n${session[0]!.text}\n`, 'the first turn carries the heading and the date')
  session.slice(1).forEach((item, k) => {
    // Each turn here is the next after the one before it, so its slug goes without saying.
    t.equal(Number(item.slug.split('-').pop()), Number(session[k]!.slug.split('-').pop()) + 1, `${item.slug} follows the turn before it`)
    t.ok(text.includes(`\n[${item.n}] ${item.text}\n`), `turn ${item.slug} is one line, citable by its number`)
  })
  t.equal(text.split('2023-07-03').length - 1, 1, 'the session date is printed once')
  const later = pack.items.find((i) => i.slug === 'chats/club/s2-1')
  t.ok(later, 'the turn of another session is in the pack')
  t.match(renderItem(later!, pack.items[pack.items.indexOf(later!) - 1]), /2023-08-14\n/, 'another session, another date: its own heading')
  pack.items.forEach((item, i) => t.equal(item.tokens, countTokens(renderItem(item, pack.items[i - 1])), `${item.slug} counted as printed`))
  t.equal(
    pack.tokens,
    pack.items.reduce((sum, i) => sum + i.tokens, 0),
  )
})

t.test('a turn after a gap in its run names its slug; the next turn after the one before it does not', async (t) => {
  const item = (n: number, slug: string, text: string) => ({ n, kind: 'hit' as const, slug, line: null, page: null, date: '2023-07-03', text })
  const first = item(1, 'chats/club/s1-2', 'Piet: We did.')
  t.equal(renderItem(first), '[1] chats/club/s1-2 2023-07-03\nPiet: We did.\n', 'the run opens with its heading')
  t.equal(renderItem(item(2, 'chats/club/s1-3', 'Odile: Again?'), first), '[2] Odile: Again?\n', 'the next turn: its number alone')
  t.equal(renderItem(item(2, 'chats/club/s1-5', 'Odile: Basil.'), first), '[2] chats/club/s1-5 Odile: Basil.\n', 'after a gap: its number and slug')
  t.equal(renderItem({ ...item(2, 'chats/club/s1-3', 'Odile: Again?'), line: 12 }, first), '[2] chats/club/s1-3:12 Odile: Again?\n', 'a line of a page: its place')
})

engineTest(t, 'a run costs fewer tokens than its turns alone, so a small budget holds more of them', async (t, { db }) => {
  await importAll(db, TURNS, null)
  const pack = await buildContextPack({ search: context(db, undefined) }, 'regatta on the lake committee boat', { budget: 130 })
  const alone = pack.items.reduce((sum, item) => sum + countTokens(renderItem(item)), 0)
  t.ok(pack.tokens <= 130, `within the budget (${pack.tokens})`)
  t.ok(alone > 130, `the same turns with a heading each would not fit (${alone} tokens)`)
})
