// test-runner: shares a process
import t from 'tap'
import { createToken } from '../../src/auth/index.js'
import { importPage } from '../../src/pages/index.js'
import { createPgDatabase } from '../helpers/engines.js'
import { call, envelope } from '../mcp/tool-suite.js'
import { httpClient, openDb, startServe } from '../http/helpers.js'

const person = (title: string, summary: string) => `---\ntitle: ${title}\ntype: person\naliases: [${title.split(' ')[0]}]\nsummary: ${summary}\n---\n\n${title}.\n`

t.test('recall and remember over HTTP: a token limited to a source reaches only that source, and only memory', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const db = await openDb(created.url)
  let tokens: { team: string; reader: string; all: string }
  try {
    await db.query(`INSERT INTO sources (id, name) VALUES ('teambrain', 'teambrain')`)
    await importPage(db, { slug: 'people/alice-example', kind: 'markdown', content: person('Alice Example', 'Personal notes.'), path: 'people/alice-example.md' })
    await importPage(db, { slug: 'people/alice-example', kind: 'markdown', content: person('Alice Example', 'Team copy.'), path: 'people/alice-example.md', sourceId: 'teambrain' })
    await importPage(db, { slug: 'companies/widgetline', kind: 'markdown', content: '---\ntitle: Widgetline\ntype: company\nsummary: Personal only.\n---\n\nx\n', path: 'companies/widgetline.md' })
    tokens = {
      team: (await createToken(db, 'team-agent', ['read', 'write'], 'teambrain')).token,
      reader: (await createToken(db, 'team-reader', ['read'], 'teambrain')).token,
      all: (await createToken(db, 'owner', ['read', 'write'])).token,
    }
  } finally {
    await db.close()
  }
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const team = await httpClient(t, server, tokens.team)

  const recalled = await call(team, 'recall', { text: 'What do we know about Alice Example? And Widgetline?', session_id: 'h1' })
  t.notOk(recalled.isError, recalled.text)
  t.same(
    (recalled.data.inject as Array<{ slug: string; source_id: string; excerpt: string }>).map((i) => [i.slug, i.source_id, i.excerpt]),
    [['people/alice-example', 'teambrain', 'Team copy.']],
    'the token source is the active source; the personal page and the personal-only company never appear',
  )
  t.match(envelope(await call(team, 'recall', { text: 'Alice Example', source: 'default' })), { code: 'source_not_allowed' }, 'another source is refused')
  t.notOk((await call(team, 'recall', { text: 'Alice Example', source: 'teambrain' })).isError, 'its own source may be named')
  for (const [name, args] of [
    ['search', { query: 'Personal' }],
    ['get_page', { slug: 'people/alice-example' }],
    ['list_pages', {}],
    ['put_page', { slug: 'x/y', content: 'x' }],
  ] as const) {
    t.match(envelope(await call(team, name, args)), { code: 'source_limited_token' }, `${name} is refused to a source-limited token`)
  }

  const written = await call(team, 'remember', { text: 'Alice agreed to the pilot.', harness: 'claude-code', session_id: 'h1' })
  t.notOk(written.isError, written.text)
  t.match(written.data, { written: [{ slug: 'people/alice-example', source_id: 'teambrain' }] }, 'remember writes in the token source')
  const owner = await httpClient(t, server, tokens.all)
  const personal = await call(owner, 'recall', { text: 'Alice Example' })
  t.match(personal.data, { inject: [{ source_id: 'default', excerpt: 'Personal notes.' }] }, 'the default source is untouched')
  const teamView = await call(owner, 'recall', { text: 'Alice Example', source: 'teambrain' })
  t.match(teamView.data, { inject: [{ source_id: 'teambrain', excerpt: /Alice agreed to the pilot/ }] })

  const reader = await httpClient(t, server, tokens.reader)
  t.notOk((await call(reader, 'recall', { text: 'Alice Example', session_id: 'r1' })).isError, 'a read-scoped token may recall (its session state is bookkeeping)')
  t.match(envelope(await call(reader, 'remember', { text: 'Alice said hi' })), { code: 'insufficient_scope' }, 'remember needs the write scope')
})
