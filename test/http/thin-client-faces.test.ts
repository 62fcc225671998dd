/**
 * A thin client (`brain init --remote`) runs the commands that are operations on the remote
 * brain, and refuses the ones that need a database of their own instead of creating an empty one.
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, openDb, startServe } from './helpers.js'

t.test('tag, sources list, doctor and auth reach the served brain; export refuses; no local brain appears', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const db = await openDb(created.url)
  t.teardown(() => db.close())
  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
  const admin = await makeToken(created.url, 'thin-admin', ['read', 'write', 'admin'])
  const writer = await makeToken(created.url, 'thin-writer', ['read', 'write'])
  const home = mkdtempSync(join(tmpdir(), 'brain-thin-faces-'))
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1' }
  const brain = (args: string[], input?: string) => runBrain(args, env, input)

  t.equal((await brain(['init', '--remote', server.base, '--token', admin, '--json'])).code, 0)
  const put = await brain(['put', 'notes/at-work', '--source', 'work', '--no-embed', '--json'], '# At work\n\nA page of the work source.\n')
  t.equal(put.code, 0, put.stderr)

  const tagged = await brain(['tag', 'notes/at-work', 'office', '--json'])
  t.equal(tagged.code, 0, tagged.stderr)
  t.same(tagged.json(), { slug: 'notes/at-work', tag: 'office', changed: true }, 'a slug unique in a non-default source is tagged remotely')
  const { rows } = await db.query<{ tag: string }>(`SELECT tag FROM tags JOIN pages ON pages.id = tags.page_id WHERE pages.slug = 'notes/at-work'`)
  t.same(
    rows.map((r) => r.tag),
    ['office'],
    'on the served brain',
  )
  t.match((await brain(['untag', 'notes/at-work', 'office', '--no-json'])).stdout, /^untagged notes\/at-work office\n$/)

  const sources = await brain(['sources', 'list', '--json'])
  t.equal(sources.code, 0, sources.stderr)
  t.match(sources.json(), [
    { id: 'default', pages: 0 },
    { id: 'work', pages: 1 },
  ])

  // Recall sends no working directory to the remote brain: this machine's folders are not its sources.
  const recalled = await brain(['recall', 'hello there', '--source', 'work', '--json'])
  t.equal(recalled.code, 0, recalled.stderr)
  t.match(recalled.json(), { inject: [], tokens: 0 })

  const doctor = await brain(['doctor', '--json'])
  t.match(doctor.json(), { checks: [{ name: 'service' }] })
  t.match(JSON.stringify(doctor.json()), /postgres/, "the served brain's database is checked, not a local one")

  const tokens = await brain(['auth', 'list', '--json'])
  t.equal(tokens.code, 0, tokens.stderr)
  t.same(
    tokens
      .json<Array<{ name: string }>>()
      .map((k) => k.name)
      .sort(),
    ['thin-admin', 'thin-writer'],
  )

  // Export reads every page through the operations, so a thin client exports the served brain.
  const exported = await brain(['export', join(home, 'out'), '--json'])
  t.equal(exported.code, 0, exported.stderr)
  t.ok(readdirSync(join(home, 'out')).length > 0, 'the served brain was exported into the folder')
  t.notOk(existsSync(join(home, 'db')), 'no empty local brain was created')

  const limited = { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-thin-faces-')), BRAIN_NO_SERVICE: '1' }
  t.equal((await runBrain(['init', '--remote', server.base, '--token', writer, '--json'], limited)).code, 0)
  const refused = await runBrain(['doctor', '--json'], limited)
  t.equal(refused.code, 1)
  t.match(refused.json(), { error: { code: 'insufficient_scope' } }, 'doctor without the admin scope is refused, not run on a phantom brain')
})
