// test-runner: shares a process
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadConfig, type Config } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { checkServiceOrLock, checkVersionMigrations, runDoctor, type DoctorReport } from '../../src/doctor/index.js'
import { importPage } from '../../src/pages/import-page.js'
import { insertSource } from '../../src/intake/sources/source-repository.js'
import { appendLedgerEntry } from '../../src/releases/upgrade/index.js'
import { engineTest } from '../helpers/engines.js'

const VERSION = '0.38.0.0'

function config(home = mkdtempSync(join(tmpdir(), 'brain-doc-'))): Config {
  return loadConfig({ env: { BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local' } })
}

function doctor(db: Database, cfg = config()): Promise<DoctorReport> {
  return runDoctor({ config: cfg, version: VERSION, brainConfigured: true, withBrain: (fn) => fn(db) })
}

function statusOf(report: DoctorReport, name: string): string | undefined {
  return report.checks.find((c) => c.name === name)?.status
}

engineTest(t, 'a healthy fresh brain: every check ok', async (t, { db }) => {
  const report = await doctor(db)
  t.same(
    report.checks.map((c) => c.name),
    ['service', 'database', 'schema_version', 'pgvector', 'embeddings', 'queue', 'sources', 'history', 'backups', 'llm', 'minions_migration'],
  )
  t.same(
    report.checks.filter((c) => c.status !== 'ok'),
    [],
  )
  t.equal(report.status, 'ok')
})

engineTest(t, 'problems turn checks to warn or fail, each with a message saying what to do', async (t, { db }) => {
  await importPage(db, { slug: 'notes/a', kind: 'markdown', content: '# A\n\nSome text.\n' })
  const gone = mkdtempSync(join(tmpdir(), 'brain-gone-'))
  await insertSource(db, { id: 'gone', localPath: gone })
  rmSync(gone, { recursive: true })
  await db.query(`INSERT INTO brain_queue.job (name, state, data, completed_on) VALUES ('shell', 'failed', '{"payload": {}}', now())`)
  await db.query(`INSERT INTO brain_queue.job (name, state, data, started_on) VALUES ('shell', 'active', '{"payload": {}, "timeout_ms": 1000}', now() - interval '1 hour')`)
  await db.query(`INSERT INTO minion_workers (id, kind, pid, host, names, concurrency, heartbeat_at) VALUES (gen_random_uuid(), 'worker', 1, 'h', '{shell}', 1, now() - interval '1 hour')`)
  const report = await doctor(db)
  const embeddings = report.checks.find((c) => c.name === 'embeddings')!
  t.equal(embeddings.status, 'warn')
  t.match(embeddings.message, /0 of \d+ chunks embedded .*without an embedding \(run `brain embed --stale`\)/)
  t.match(
    report.checks.find((c) => c.name === 'sources'),
    { status: 'warn', message: /gone \(.*brain-gone-/ },
  )
  const queue = report.checks.find((c) => c.name === 'queue')!
  t.equal(queue.status, 'warn')
  t.match(queue.message, /1 job\(s\) active past their timeout/)
  t.match(queue.message, /1 dead job\(s\)/)
  t.match(queue.message, /1 worker\(s\) stopped sending heartbeats/)
  t.equal(report.status, 'warn')

  await db.query(`UPDATE content_chunks SET embedding = array_fill(0.01::real, ARRAY[1536])::vector, model = 'some-other-model'`)
  t.match((await doctor(db)).checks.find((c) => c.name === 'embeddings')!.message, /embedded with another model.*brain embed --all/)

  await db.query('INSERT INTO brain_migrations (version, name, applied) VALUES (9999, $1, true)', ['from_the_future'])
  t.match(
    (await doctor(db)).checks.find((c) => c.name === 'schema_version'),
    { status: 'warn', message: /9999/ },
  )
  await db.query('DELETE FROM brain_migrations WHERE version IN (9999, 120)')
  const missing = await doctor(db)
  t.match(
    missing.checks.find((c) => c.name === 'schema_version'),
    { status: 'fail', message: /not applied: 120/ },
  )
  t.equal(missing.status, 'fail')
})

engineTest(t, 'a failing check query is a fail of that check, not a crash', async (t, { db }) => {
  await db.exec('DROP VIEW minion_jobs')
  const report = await doctor(db)
  t.match(
    report.checks.find((c) => c.name === 'queue'),
    { status: 'fail', message: /check failed: .*minion_jobs/ },
  )
  t.equal(statusOf(report, 'embeddings'), 'ok', 'the other checks still ran')
})

t.test('an unreachable database fails the database check; the rest say they were not checked', async (t) => {
  const report = await runDoctor({
    config: config(),
    version: VERSION,
    brainConfigured: true,
    withBrain: async () => {
      throw Object.assign(new Error('Could not connect to PostgreSQL at postgres://x.'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') })
    },
  })
  t.equal(report.status, 'fail')
  t.match(
    report.checks.find((c) => c.name === 'database'),
    { status: 'fail', message: /Could not connect.*ECONNREFUSED/ },
  )
  t.same(
    report.checks.filter((c) => /not checked/.test(c.message)).map((c) => c.name),
    ['schema_version', 'pgvector', 'embeddings', 'queue', 'sources', 'history', 'backups', 'llm'],
  )
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED', syscall: 'connect' })
  const openButGone = { location: 'postgres://x', capabilities: {}, query: async () => Promise.reject(refused) } as unknown as Database
  const silent = await runDoctor({ config: config(), version: VERSION, brainConfigured: true, withBrain: (fn) => fn(openButGone) })
  t.match(
    silent.checks.find((c) => c.name === 'database'),
    { status: 'fail', message: /at postgres:\/\/x does not answer: connect ECONNREFUSED/ },
    'an open pool whose server went away',
  )
  t.same(
    silent.checks.filter((c) => c.status === 'fail').map((c) => c.name),
    ['database'],
  )
  const hanging = await runDoctor({ config: config(), version: VERSION, brainConfigured: true, withBrain: () => new Promise(() => undefined), timeoutMs: 50 })
  t.match(
    hanging.checks.find((c) => c.name === 'database'),
    { status: 'fail', message: /no answer from the database within/ },
  )
  const none = await runDoctor({ config: config(), version: VERSION, brainConfigured: false, withBrain: () => Promise.reject(new Error('must not open')) })
  t.match(
    none.checks.find((c) => c.name === 'database'),
    { status: 'fail', message: /no brain is configured.*brain init/ },
  )
})

t.test('minions_migration follows the ledger rule', async (t) => {
  const ledger = (entries: [string, 'partial' | 'complete'][]) => {
    const home = mkdtempSync(join(tmpdir(), 'brain-doc-'))
    for (const [version, status] of entries) appendLedgerEntry(home, { version, status, at: '2026-01-01T00:00:00.000Z' })
    return checkVersionMigrations(home, VERSION)
  }
  t.match(ledger([]), { status: 'ok', message: /no version migrations recorded/ })
  t.match(ledger([['0.22.4', 'partial']]), { status: 'fail', message: /v0\.22\.4 .*apply-migrations/ }, 'stuck')
  t.match(
    ledger([
      ['0.22.4', 'partial'],
      ['0.22.4', 'complete'],
      ['0.38.0.0', 'complete'],
    ]),
    { status: 'ok' },
    'completed: stale',
  )
  t.match(
    ledger([
      ['0.22.4', 'partial'],
      ['0.38.0.0', 'complete'],
    ]),
    { status: 'warn', message: /pending: v0\.22\.4/ },
    'stale partial not reported; the version itself is still pending',
  )
  t.match(
    ledger([
      ['0.38.0.0', 'partial'],
      ['0.22.4', 'complete'],
    ]),
    { status: 'fail', message: /v0\.38\.0\.0/ },
    'only an older complete: still fails',
  )
})

t.test('service and lock files', async (t) => {
  const cfg = config()
  t.match(checkServiceOrLock(cfg, VERSION), { status: 'ok', message: /no resident service; the embedded brain is not locked/ })
  writeFileSync(join(cfg.home, 'db.lock'), JSON.stringify({ pid: process.ppid, command: 'brain jobs work' }))
  t.match(checkServiceOrLock(cfg, VERSION), { status: 'warn', message: new RegExp(`held by process ${process.ppid} \\(brain jobs work\\)`) })
  writeFileSync(join(cfg.home, 'db.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, command: 'gone' }))
  t.match(checkServiceOrLock(cfg, VERSION), { status: 'warn', message: /stale lock/ })

  const socket = join(cfg.home, 'brain.sock')
  writeFileSync(join(cfg.home, 'service.json'), JSON.stringify({ pid: process.pid, version: VERSION, build: 'x', socket, startedAt: new Date().toISOString() }))
  t.match(checkServiceOrLock(cfg, VERSION), { status: 'warn', message: /socket .* is missing/ })
  mkdirSync(socket)
  t.match(checkServiceOrLock(cfg, VERSION), { status: 'ok', message: new RegExp(`resident service pid ${process.pid} \\(version ${VERSION.replace(/\./g, '\\.')}\\)`) })
  t.match(checkServiceOrLock(cfg, '0.39.0.0'), { status: 'warn', message: /runs version 0\.38\.0\.0, this build is 0\.39\.0\.0/ })
  writeFileSync(join(cfg.home, 'service.json'), JSON.stringify({ pid: 2 ** 22 + 12345, version: VERSION, socket }))
  t.match(checkServiceOrLock(cfg, VERSION), { status: 'warn', message: /not running/ })
})
