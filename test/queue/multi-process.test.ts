/**
 * Several worker processes against one PostgreSQL database: the server engine only, since the
 * embedded engine admits a single process.
 */
import t, { type Test } from 'tap'
import { openPostgres } from '../../src/db/pg-driver.js'
import type { Database } from '../../src/db/types.js'
import { openQueue, type Queue } from '../../src/queue/index.js'
import { createPgDatabase } from '../helpers/engines.js'
import { eventually, FAST_TIMINGS, resolverOf, testConfig, testLogger } from './helpers.js'
import { spawnScript, WORKER_FIXTURE, type Spawned } from './processes.js'

async function setup(t: Test): Promise<{ db: Database; url: string; queue: Queue; start: (concurrency?: number) => Promise<Spawned> }> {
  const created = await createPgDatabase({ migrated: true })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  await db.exec('CREATE TABLE test_runs (job_id uuid NOT NULL, pid integer NOT NULL, at timestamptz NOT NULL DEFAULT now())')
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const children: Spawned[] = []
  t.teardown(async () => {
    for (const c of children) c.child.kill('SIGKILL')
    await Promise.all(children.map((c) => c.exited))
    await db.close()
    await created.drop()
  })
  const start = async (concurrency = 4): Promise<Spawned> => {
    const worker = spawnScript(WORKER_FIXTURE, [], { BRAIN_TEST_DB_URL: created.url, BRAIN_TEST_CONCURRENCY: String(concurrency) })
    children.push(worker)
    await worker.line(/^ready /)
    return worker
  }
  return { db, url: created.url, queue, start }
}

t.test('two workers, 500 jobs: each job completes exactly once', async (t) => {
  const { db, queue, start } = await setup(t)
  await Promise.all([start(8), start(8)])
  const ids = new Set<string>()
  for (let i = 0; i < 500; i++) ids.add((await queue.submit('shell', { mode: 'count', i })).id)
  await eventually(async () => ((await queue.stats()).completed === 500 ? true : undefined), '500 completed jobs', 60_000)
  const runs = await db.query<{ job_id: string; pid: number }>('SELECT job_id, pid FROM test_runs')
  t.equal(runs.rowCount, 500, 'exactly 500 runs')
  t.equal(new Set(runs.rows.map((r) => r.job_id)).size, 500, 'no job ran twice')
  t.ok(
    runs.rows.every((r) => ids.has(r.job_id)),
    'only submitted jobs ran',
  )
  const pids = new Set(runs.rows.map((r) => r.pid))
  t.equal(pids.size, 2, 'both workers took jobs')
  t.match(await queue.stats(), { waiting: 0, active: 0, dead: 0 })
})

t.test('SIGKILL a worker mid-job: the job is reclaimed and completes', async (t) => {
  const { db, queue, start } = await setup(t)
  const victim = await start(1)
  const job = await queue.submit('shell', { mode: 'sticky' })
  await victim.line(new RegExp(`^claimed ${job.id}`))
  victim.child.kill('SIGKILL')
  t.match(await victim.exited, { signal: 'SIGKILL' })
  t.equal((await queue.get(job.id))?.status, 'active', 'the job is left active by the dead worker')
  await start(1)
  const done = await eventually(async () => {
    const current = await queue.get(job.id)
    return current?.status === 'completed' ? current : undefined
  }, 'the reclaimed job to complete')
  t.equal(done.result, 'recovered')
  t.equal(done.attempts, 2)
  const runs = await db.query<{ pid: number }>('SELECT pid FROM test_runs WHERE job_id = $1 ORDER BY at', [job.id])
  t.equal(runs.rowCount, 2)
  t.not(runs.rows[0]!.pid, runs.rows[1]!.pid, 'another process finished it')
})

t.test('a job that keeps stalling ends dead after max_stalled', async (t) => {
  const { db, queue, start } = await setup(t)
  const job = await queue.submit('shell', { mode: 'suicide' }, { maxStalled: 1 })
  // Each worker claims the job and dies with it; the next one rescues it (a stall) and claims it
  // again, until the job has stalled more than max_stalled times and the next rescue kills it.
  let workers = 0
  let last: Spawned | null = null
  let lastExited = true
  const final = await eventually(
    async () => {
      const current = await queue.get(job.id)
      if (current?.status === 'dead') return current
      if (lastExited && workers < 4) {
        workers++
        last = await start(1)
        lastExited = false
        void last.exited.then(() => (lastExited = true))
      }
      return undefined
    },
    'the stalling job to die',
    30_000,
  )
  t.match(final, { status: 'dead', attempts: 2, maxStalled: 1, error: { class: 'JobStalled', code: 'job_stalled' } })
  const runs = await db.query('SELECT pid FROM test_runs WHERE job_id = $1', [job.id])
  t.equal(runs.rowCount, 2, 'it ran once, stalled, ran again, stalled again, and then stopped')
})
