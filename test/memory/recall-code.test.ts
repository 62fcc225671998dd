// test-runner: shares a process
import t from 'tap'
import { recall } from '../../src/memory/index.js'
import { codeIdentifiers } from '../../src/memory/code-ids.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { importRepo, REPO } from '../code/fixture.js'

t.test('code identifiers: backticks, CamelCase, lowerCamel, snake_case and dotted paths; plain words are not code', async (t) => {
  const ids = codeIdentifiers('Why does `enqueue` fail when Queue.submit calls formatValue or parse_config, unlike PageRepository? Plain words and Tobias stay prose.')
  t.same(ids.names.sort(), ['PageRepository', 'enqueue', 'formatValue', 'parse_config'].sort(), 'a qualified name is looked up whole; its plain last word is not a name on its own')
  t.same(ids.qualified, ['Queue.submit'])
  t.same(codeIdentifiers('Great, thanks. That covers it. e.g. fine'), { names: [], qualified: [] })
})

engineTest(t, 'recall: a code identifier the active source defines volunteers its definition (slug, line, signature)', async (t, { db }) => {
  await importRepo(db)
  const found = await recall(db, { text: 'Why does `enqueue` drop jobs, and what does formatValue return?' })
  t.match(found.inject, [
    { slug: 'src/queue.ts', source_id: 'default', title: 'enqueue', type: 'code', reason: /defines enqueue \(function\)/, excerpt: /^L14: export function enqueue\(job: string\): string \{/ },
    { slug: /\.js$/, title: 'formatValue', type: 'code', excerpt: /^L\d+: function formatValue\(v\)/ },
  ])
  t.match((await recall(db, { text: 'Look at Queue.submit' })).inject, [{ slug: 'src/queue.ts', title: 'Queue.submit', excerpt: /^L4: submit\(job: string\)/ }], 'a dotted path')
  t.same((await recall(db, { text: 'notAFunctionAnywhere and no_such_thing' })).inject, [], 'an identifier nothing defines')
  t.same((await recall(db, { text: 'enqueue the job' })).inject, [], 'a plain word is not an identifier')
  await db.query(`INSERT INTO sources (id, name) VALUES ('other', 'other')`)
  await importPage(db, { slug: 'lib/only.ts', kind: 'code', content: 'export function onlyElsewhere(): number {\n  return 1\n}\n', path: 'lib/only.ts', sourceId: 'other' })
  t.same((await recall(db, { text: 'what does onlyElsewhere do' })).inject, [], 'code of another source is never read')
  t.match((await recall(db, { text: 'what does onlyElsewhere do', sourceId: 'other' })).inject, [{ slug: 'lib/only.ts', source_id: 'other' }])
  t.ok(REPO['src/queue.ts'])
})
