// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { recall, remember } from '../../src/memory/index.js'
import { findPage, importPage } from '../../src/pages/index.js'
import { listVersions } from '../../src/history/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'

async function page(db: Database, slug: string, content: string, sourceId?: string): Promise<void> {
  if (sourceId) await db.query(`INSERT INTO sources (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING`, [sourceId])
  await importPage(db, { slug, kind: 'markdown', content, path: `${slug}.md`, sourceId })
}

const person = (title: string, alias: string, summary: string, body = '') => `---\ntitle: ${title}\ntype: person\naliases: [${alias}]\nsummary: ${summary}\n---\n\n${title} ${body}\n`

async function seed(db: Database): Promise<void> {
  await page(db, 'people/tobias-cindergate', person('Tobias Cindergate', 'tobias', 'Founder of Mosslight.', 'raised concerns about gross margin.'))
  await page(
    db,
    'companies/mosslight',
    '---\ntitle: Mosslight\ntype: company\nsummary: Seed-stage company.\n---\n\nMosslight is a seed-stage company.\n\n## Timeline\n\n- **2025-01-10** | First call.\n- **2025-03-02** | Decided to lead the seed.\n',
  )
  await page(db, 'people/yuki-quincewood', person('Yuki Quincewood', 'yuki', 'Founder of Orchardbyte.'))
  await page(db, 'people/yuki-pemberlake', person('Yuki Pemberlake', 'yuki', 'Founder of Frostpetal.'))
  await page(db, 'companies/marrowline', '---\ntitle: Marrowline\ntype: company\naliases: [Marrow]\n---\n\nA company.\n')
  await page(db, 'notes/tobias-ideas', '---\ntitle: Ideas\ntype: note\n---\n\nTobias ideas, not an entity.\n')
}

const slugs = (r: { inject: Array<{ slug: string }> }) => r.inject.map((i) => i.slug)

engineTest(t, 'recall: an entity named by full title, alias or lower-case alias is volunteered with its excerpt', async (t, { db }) => {
  await seed(db)
  const full = await recall(db, { text: 'What did Tobias Cindergate say?' })
  t.same(slugs(full), ['people/tobias-cindergate'])
  t.match(full.inject[0], { source_id: 'default', title: 'Tobias Cindergate', type: 'person', reason: /tobias cindergate/, excerpt: 'Founder of Mosslight.' })
  t.ok(full.tokens > 0 && full.session === null)
  t.same(slugs(await recall(db, { text: "I'm meeting Tobias tomorrow, anything?" })), ['people/tobias-cindergate'], 'alias')
  t.same(slugs(await recall(db, { text: "what's tobias's take on pricing" })), ['people/tobias-cindergate'], 'lower-case alias, possessive')
  const company = await recall(db, { text: 'where are we with mosslight' })
  t.match(company.inject[0]?.excerpt, /^Seed-stage company\. · 2025-03-02: Decided to lead the seed\. · 2025-01-10: First call\.$/, 'summary, then the newest timeline entries')
})

engineTest(t, 'recall: a shared name volunteers neither, the full name picks one; contained words, near misses and small talk volunteer nothing', async (t, { db }) => {
  await seed(db)
  t.same(slugs(await recall(db, { text: 'Ping Yuki about the offsite agenda.' })), [], 'shared alias')
  t.same(slugs(await recall(db, { text: 'Sorry, I meant Yuki Quincewood, the Orchardbyte founder.' })), ['people/yuki-quincewood'], 'full name')
  t.same(slugs(await recall(db, { text: 'The marrowbone soup and Marrowlines everywhere' })), [], 'a word containing a name')
  t.same(slugs(await recall(db, { text: 'Bring the marrow of it' })), ['companies/marrowline'], 'the alias itself, word-bounded')
  t.same(slugs(await recall(db, { text: 'Did Tobias Cindergater reach out yet?' })), [], 'a near miss of the full name')
  for (const smallTalk of ['Great, thanks. That covers it.', 'Monday already. Let me get coffee and then we start.', 'What time is it in Tokyo right now?']) {
    t.same(await recall(db, { text: smallTalk }), { inject: [], tokens: 0, session: null }, smallTalk)
  }
  t.same(slugs(await recall(db, { text: 'those ideas' })), [], 'a page that is not an entity is never volunteered by name')
})

engineTest(t, 'recall: a person by surname alone when written with a capital and no other name fits; an org is an entity', async (t, { db }) => {
  await seed(db)
  await page(db, 'people/ada-quince', person('Ada Quince', 'ada', 'Investor.'))
  await page(db, 'funds/harborlight', '---\ntitle: Harborlight Ventures\ntype: org\nsummary: A fund.\n---\n\nA fund.\n')
  t.same(slugs(await recall(db, { text: 'Did Cindergate ever follow up on that intro?' })), ['people/tobias-cindergate'])
  t.same(slugs(await recall(db, { text: 'the cindergate of the town' })), [], 'not in lower case')
  t.same(slugs(await recall(db, { text: 'Quince or Quincewood?' })), ['people/ada-quince', 'people/yuki-quincewood'], 'each its own surname')
  t.same(slugs(await recall(db, { text: 'Is Harborlight Ventures in?' })), ['funds/harborlight'])
})

engineTest(t, 'recall: a page is volunteered once per session, again when it changes, and afresh in a new session', async (t, { db }) => {
  await seed(db)
  t.same(slugs(await recall(db, { text: 'Catch me up on Tobias', sessionId: 's1' })), ['people/tobias-cindergate'])
  const again = await recall(db, { text: 'And does Tobias Cindergate have board consent?', sessionId: 's1' })
  t.same(again, { inject: [], tokens: 0, session: 's1' }, 'a re-mention in the session is quiet')
  t.same(slugs(await recall(db, { text: 'Tobias and Mosslight', sessionId: 's1' })), ['companies/mosslight'], 'only the new page')
  t.same(slugs(await recall(db, { text: 'Tobias', sessionId: 's2' })), ['people/tobias-cindergate'], 'a new session starts fresh')
  t.same(slugs(await recall(db, { text: 'Tobias' })), ['people/tobias-cindergate'], 'no session, no suppression')
  await remember(writeCtx(db), { text: 'Tobias agreed to send the Q3 numbers.', sessionId: 's-other' })
  t.match((await recall(db, { text: 'Tobias?', sessionId: 's1' })).inject, [{ slug: 'people/tobias-cindergate', excerpt: /Q3 numbers/ }], 'a page changed by another session is told again')
  await remember(writeCtx(db), { text: 'Tobias will call back.', sessionId: 's1' })
  t.same(slugs(await recall(db, { text: 'Tobias?', sessionId: 's1' })), [], 'what the session wrote itself is not told back to it')
  t.same(slugs(await recall(db, { text: 'Tobias?', sessionId: 's-other' })), ['people/tobias-cindergate'], 'the other session hears of it')
  await db.query(`UPDATE memory_session_pages SET expires_at = now() - interval '1 minute' WHERE session_id = 's2'`)
  t.same(slugs(await recall(db, { text: 'Tobias', sessionId: 's2' })), ['people/tobias-cindergate'], 'an expired session forgets')
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memory_session_pages WHERE expires_at <= now()`)
  t.equal(Number(rows[0]!.n), 0, 'expired rows are pruned')
})

engineTest(t, 'recall: only the active source is read', async (t, { db }) => {
  await page(db, 'people/alice-example', person('Alice Example', 'alice', 'Personal notes.'))
  await page(db, 'people/alice-example', person('Alice Example', 'alice', 'TEAM copy.'), 'teambrain')
  await page(db, 'companies/acme-example', '---\ntitle: Acme Example\ntype: company\nsummary: Team only.\n---\n\nTeam only.\n', 'teambrain')
  const mine = await recall(db, { text: 'What do I know about Alice Example? And Acme Example?' })
  t.same(
    mine.inject.map((i) => [i.slug, i.source_id, i.excerpt]),
    [['people/alice-example', 'default', 'Personal notes.']],
  )
  const team = await recall(db, { text: 'What do I know about Alice Example? And Acme Example?', sourceId: 'teambrain' })
  t.same(
    team.inject.map((i) => [i.slug, i.source_id]),
    [
      ['people/alice-example', 'teambrain'],
      ['companies/acme-example', 'teambrain'],
    ],
  )
  t.notOk(
    team.inject.some((i) => /Personal/.test(i.excerpt)),
    'no excerpt of another source',
  )
  await t.rejects(recall(db, { text: 'Alice Example', sourceId: 'no-such-source' }), { code: 'source_not_found' }, 'an unknown source is refused, as a page write refuses it')
})

engineTest(t, 'recall: the budget bounds the whole answer; pages ranked, excerpts cut to fit', async (t, { db }) => {
  const long = Array.from({ length: 40 }, (_, i) => `- **2025-02-${String((i % 28) + 1).padStart(2, '0')}** | Meeting number ${i} about the long and winding pricing discussion.`).join('\n')
  const names = ['Ada Quill', 'Bram Ostrow', 'Cleo Varnish', 'Dov Pellucid', 'Esme Thornquist', 'Fitz Harrowgate']
  for (const name of names) {
    await page(
      db,
      `people/${name.toLowerCase().replace(' ', '-')}`,
      `---\ntitle: ${name}\ntype: person\nsummary: ${'A very long summary sentence about this person. '.repeat(8)}\n---\n\nBody.\n\n## Timeline\n\n${long}\n`,
    )
  }
  const turn = `Prep for ${names.join(', ')}.`
  const roomy = await recall(db, { text: turn })
  t.ok(roomy.tokens <= 300 && roomy.tokens > 150, `default budget: ${roomy.tokens} tokens`)
  t.equal(roomy.inject[0]?.slug, 'people/ada-quill', 'ranked in the order named')
  const tight = await recall(db, { text: turn, budget: 60 })
  t.ok(tight.tokens <= 60, `${tight.tokens} tokens within 60`)
  t.ok(tight.inject.length >= 1 && tight.inject.length < names.length, `${tight.inject.length} pages fit`)
  t.match(tight.inject[0]?.excerpt, /…$/, 'the excerpt is cut')
  const { countTokens } = await import('../../src/embedding/index.js')
  const { recallLine } = await import('../../src/memory/index.js')
  t.equal(
    tight.inject.reduce((n, i) => n + countTokens(recallLine(i)), 0),
    tight.tokens,
    'tokens are those of the lines given',
  )
})

function writeCtx(db: Database) {
  return { db, logger: silentLogger, repoPath: null, remote: false }
}

engineTest(t, 'remember: a dated timeline entry on each page named, with provenance in the history; recall in another session volunteers it', async (t, { db }) => {
  await seed(db)
  const result = await remember(writeCtx(db), {
    text: 'We decided to wait on the Mosslight round until next quarter.',
    sessionId: 'writer-1',
    harness: 'claude-code',
    now: new Date('2025-04-14T15:20:00Z'),
  })
  t.match(result, {
    written: [{ slug: 'companies/mosslight', source_id: 'default', status: 'updated', entry: '- **2025-04-14** | We decided to wait on the Mosslight round until next quarter.' }],
    session: 'writer-1',
    harness: 'claude-code',
  })
  const stored = await findPage(db, 'default', 'companies/mosslight')
  t.match(stored?.timeline, /- \*\*2025-03-02\*\* \| Decided to lead the seed\.\n- \*\*2025-04-14\*\* \| We decided to wait/)
  t.match(stored, { writtenVia: 'remember', writtenBy: 'harness=claude-code session=writer-1' })
  const history = await listVersions(db, stored!.id)
  t.ok(history.length >= 1, 'the previous content is kept as a version')
  const later = await recall(db, { text: 'Where did we land on Mosslight?', sessionId: 'reader-codex' })
  t.match(later.inject, [{ slug: 'companies/mosslight', excerpt: /2025-04-14: We decided to wait on the Mosslight round/ }])

  const both = await remember(writeCtx(db), { text: 'Intro sent.', about: ['people/tobias-cindergate', 'companies/mosslight'], harness: 'codex' })
  t.same(
    both.written.map((w) => w.slug),
    ['people/tobias-cindergate', 'companies/mosslight'],
    '--about names the pages',
  )
  await t.rejects(remember(writeCtx(db), { text: 'Nothing named here at all.' }), { code: 'remember_nothing_named' })
  await t.rejects(remember(writeCtx(db), { text: 'x', about: ['people/nobody'] }), { code: 'page_not_found' })
  await t.rejects(remember(writeCtx(db), { text: 'Tobias said hi', sourceId: 'teambrain' }), { code: 'remember_nothing_named' }, 'another source has no such entity')
})
