/**
 * The brief open of an embedded brain, as an agent's first hook makes it when no service runs:
 * no pg_trgm, a small buffer pool, no watchdog. The hook's operations answer exactly as on a
 * full open, code definitions (whose chunks carry vectors and a trigram index) included; what
 * they write is there for the next full open; a brain that needs migrating is opened in full.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { callOperation } from '../../src/cli/call-operation.js'
import { loadConfig } from '../../src/config/index.js'
import { migrationVersions, schemaIsCurrent } from '../../src/db/migrate.js'
import { openDatabase } from '../../src/db/open.js'
import { importPage } from '../../src/pages/index.js'
import { importRepo } from '../code/fixture.js'

const home = mkdtempSync(join(tmpdir(), 'brain-brief-'))
t.teardown(() => rmSync(home, { recursive: true, force: true }))
const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1', BRAIN_EMBEDDING_PROVIDER: 'local' }
const engine = loadConfig({ env }).engine
const newest = Math.max(...migrationVersions())

t.before(async () => {
  const db = await openDatabase(engine)
  try {
    await importRepo(db)
    await importPage(db, { slug: 'people/tobiah-marsh', kind: 'markdown', content: '---\ntitle: Tobiah Marsh\ntype: person\nsummary: Buyer at Marrowline.\n---\n\nTobiah.\n', path: 'p.md' })
    // Every chunk carries a vector, as after `brain embed`.
    await db.query(`UPDATE content_chunks SET embedding = array_fill(0.5::real, ARRAY[1536])::vector`)
  } finally {
    await db.close()
  }
})

const call = (operation: string, args: Record<string, unknown>, brief: boolean): Promise<Record<string, unknown>> => callOperation({ operation, args, cwd: home, env }, { brief })

t.test('recall and start_session answer on a brief open as on a full one', async (t) => {
  const text = 'prep my call with Tobiah Marsh: why does `enqueue` drop jobs, and what does formatValue return?'
  const full = await call('recall', { text }, false)
  t.equal((full.inject as unknown[]).length, 3, 'the person and two code definitions')
  t.same(await call('recall', { text }, true), full)
  t.same(await call('start_session', {}, true), await call('start_session', {}, false))
})

t.test('what a brief open writes is kept: a session told once stays told', async (t) => {
  const first = await call('recall', { text: 'and Tobiah Marsh?', session_id: 's1' }, true)
  t.match(first.inject, [{ slug: 'people/tobiah-marsh' }])
  t.same((await call('recall', { text: 'Tobiah Marsh again', session_id: 's1' }, false)).inject, [], 'the full open sees the claim')
  t.same((await call('recall', { text: 'Tobiah Marsh once more', session_id: 's1' }, true)).inject, [], 'and so does the next brief one')
})

t.test('a brief open has no pg_trgm: a statement on trigrams is refused there and runs on a full open', async (t) => {
  const trigrams = `SELECT similarity('enqueue', 'enqueued') AS s`
  const brief = await openDatabase(engine, { brief: true })
  try {
    await t.rejects(brief.query(trigrams))
    t.match((await brief.query<{ v: string }>(`SELECT embedding::text AS v FROM content_chunks LIMIT 1`)).rows[0]?.v, /^\[0\.5,/, 'vectors are read')
  } finally {
    await brief.close()
  }
  const full = await openDatabase(engine)
  try {
    t.ok((await full.query<{ s: number }>(trigrams)).rows[0]!.s > 0)
  } finally {
    await full.close()
  }
})

t.test('a brain that needs a migration is opened in full and migrated', async (t) => {
  const db = await openDatabase(engine)
  try {
    t.equal(await schemaIsCurrent(db), true)
    t.equal(await schemaIsCurrent(db, [...migrationVersions(), newest + 1]), false, 'a version of a later build is pending')
    // The newest migration replaces a function, so applying it again changes nothing else.
    await db.query('DELETE FROM brain_migrations WHERE version = $1', [newest])
    t.equal(await schemaIsCurrent(db), false)
  } finally {
    await db.close()
  }
  const brief = await openDatabase(engine, { brief: true })
  try {
    t.equal(await schemaIsCurrent(brief), true, 'the migration was applied')
    t.ok((await brief.query<{ s: number }>(`SELECT similarity('enqueue', 'enqueued') AS s`)).rows[0]!.s > 0, 'with pg_trgm')
  } finally {
    await brief.close()
  }
})
