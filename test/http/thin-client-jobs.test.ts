/**
 * `brain sync`, `brain jobs submit` and `brain put --dry-run` on a thin client run the served brain's operations: the
 * pages land in the server's database, the job is the server's, and no local brain appears.
 */
import { existsSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { runBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeRepo } from '../intake/sync/helpers.js'
import { makeToken, openDb, startServe } from './helpers.js'

t.test('sync and jobs submit reach the served brain from a thin client', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const db = await openDb(created.url)
  t.teardown(() => db.close())
  const repo = makeRepo({ 'notes/a.md': '# A\n\nFirst note.\n', 'notes/b.md': '# B\n\nSecond note.\n' })
  await db.query(`INSERT INTO sources (id, name, local_path) VALUES ('work', 'work', $1)`, [realpathSync(repo.dir)])
  const token = await makeToken(created.url, 'thin-jobs', ['read', 'write'])
  const home = mkdtempSync(join(tmpdir(), 'brain-thin-jobs-'))
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1' }
  const brain = (args: string[]) => runBrain(args, env)
  t.equal((await brain(['init', '--remote', server.base, '--token', token, '--json'])).code, 0)

  const dry = await brain(['sync', '--source', 'work', '--no-embed', '--dry-run', '--json'])
  t.equal(dry.code, 0, dry.stderr)
  t.match(dry.json(), { status: 'dry_run', source_id: 'work', added: 2 }, '--dry-run reaches the served brain')
  const synced = await brain(['sync', '--source', 'work', '--no-embed', '--json'])
  t.equal(synced.code, 0, synced.stderr)
  t.match(synced.json(), { status: 'synced', source_id: 'work', added: 2, mode: 'full' })
  t.notOk('slugs' in synced.json(), 'the same JSON as a local sync')
  const { rows } = await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE source_id = 'work' ORDER BY slug`)
  t.same(
    rows.map((r) => r.slug),
    ['notes/a', 'notes/b'],
    "the pages are in the served brain's database",
  )
  t.match((await brain(['sync', '--source', 'work', '--no-embed', '--no-json'])).stdout, /^work: up to date at [0-9a-f]{10}\n$/)

  const preview = await brain(['sync', '--all', '--dry-run', '--json'])
  t.equal(preview.code, 0, preview.stderr)
  t.match(preview.json(), { status: 'preview', preview: { sources: 1, per_source: [{ source_id: 'work' }] } }, "the cost preview is of the served brain's sources")
  const refused = await brain(['sync', '--all', '--json'])
  t.equal(refused.code, 2)
  t.match(refused.json(), { error: { class: 'ConfirmationRequired' } }, 'and the gate asks on the client')

  const byDirectory = await brain(['sync', '--repo', repo.dir, '--json'])
  t.equal(byDirectory.code, 1)
  t.match(byDirectory.json(), { error: { class: 'UsageError', code: 'sync_repo_not_allowed_remotely' } }, "a client's directory is not the server's")

  const submitted = await brain(['jobs', 'submit', 'extract', '--data', '{"slugs":[]}', '--priority', '3', '--json'])
  t.equal(submitted.code, 0, submitted.stderr)
  const id = submitted.json<{ id: string }>().id
  const { rows: jobs } = await db.query<{ name: string }>(`SELECT name FROM minion_jobs WHERE id = $1`, [id])
  t.same(
    jobs.map((j) => j.name),
    ['extract'],
    "the job is in the served brain's queue",
  )
  const waited = await brain(['jobs', 'submit', 'extract', '--data', '{"slugs":[]}', '--wait', '--no-json'])
  t.equal(waited.code, 0, waited.stderr)
  t.match(waited.stdout, /^[0-9a-f-]{36}\s+extract\s+completed/)
  const dryPut = await runBrain(['put', 'notes/preview', '--no-embed', '--dry-run', '--json'], env, '# Preview\n\nNot to be written.\n')
  t.equal(dryPut.code, 0, dryPut.stderr)
  t.match(dryPut.json(), { slug: 'notes/preview', status: 'created', write_through: { reason: 'dry_run' } }, 'put --dry-run reports what the served brain would do')
  const { rows: previewed } = await db.query(`SELECT 1 FROM pages WHERE slug = 'notes/preview'`)
  t.equal(previewed.length, 0, '--dry-run reaches the server: nothing was written')
  const shell = await brain(['jobs', 'submit', 'shell', '--data', '{"cmd":"echo hi"}', '--json'])
  t.match(shell.json(), { error: { code: 'job_not_allowed_remotely' } })
  t.notOk(existsSync(join(home, 'db')), 'no empty local brain was created')

  const notAdmin = await brain(['auth', 'clients', 'register', 'inbox-daemon', '--json'])
  t.equal(notAdmin.code, 1, 'registering an OAuth client needs the admin scope')
  const adminHome = mkdtempSync(join(tmpdir(), 'brain-thin-admin-'))
  const adminEnv = { BRAIN_HOME: adminHome, BRAIN_NO_SERVICE: '1' }
  const adminToken = await makeToken(created.url, 'thin-admin', ['read', 'write', 'admin'])
  t.equal((await runBrain(['init', '--remote', server.base, '--token', adminToken, '--json'], adminEnv)).code, 0)
  const registered = await runBrain(['auth', 'clients', 'register', 'inbox-daemon', '--scopes', 'write', '--json'], adminEnv)
  t.equal(registered.code, 0, registered.stderr)
  t.match(registered.json(), { name: 'inbox-daemon', client_id: /^bc_/, client_secret: /^bcs_/, grant_types: ['client_credentials'], scopes: ['write'] })
  const { rows: clients } = await db.query<{ name: string }>(`SELECT name FROM oauth_clients`)
  t.same(
    clients.map((c) => c.name),
    ['inbox-daemon'],
    "the client is registered in the served brain's database",
  )
  const reindexed = await runBrain(['reindex', '--json'], adminEnv)
  t.equal(reindexed.code, 0, reindexed.stderr)
  const { rows: pageCount } = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM pages`)
  t.match(reindexed.json(), { language: 'english', pages: Number(pageCount[0]!.n) }, "reindex rebuilds the served brain's index")
  const dreamed = await runBrain(['dream', '--phase', 'queue-housekeeping', '--json'], adminEnv)
  t.equal(dreamed.code, 0, dreamed.stderr)
  t.match(dreamed.json(), { phases: [{ phase: 'queue-housekeeping', status: 'completed' }] }, 'dream runs a cycle of the served brain')
  const dreamDir = await runBrain(['dream', '--dir', repo.dir, '--json'], adminEnv)
  t.match(dreamDir.json(), { error: { class: 'UsageError', code: 'dream_dir_not_allowed_remotely' } }, "a client's directory is not the server's")
  const typo = await runBrain(['dream', '--phase', 'nap', '--json'], adminEnv)
  t.match(typo.json(), { error: { code: 'unknown_phase' } })
})
