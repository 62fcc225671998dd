// test-runner: waiting lane (it waits out liveness periods and stalled jobs)
/**
 * A command waiting for a job follows the job's liveness: it ends with the job's real outcome
 * when the outcome cannot be stored, and with a clear error when nobody can finish the job;
 * never by waiting forever.
 */
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import t from 'tap'
import { migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite-driver.js'
import { readEmptyTemplate } from '../../src/db/template.js'
import type { Database, SqlExecutor } from '../../src/db/types.js'
import { DiskError } from '../../src/errors/index.js'
import { openQueue } from '../../src/queue/index.js'
import { executionDeps } from '../../src/queue/facade.js'
import { claimJob } from '../../src/queue/boss-sql.js'
import { awaitJob } from '../../src/queue/wait.js'
import { registerLocalWorker } from '../../src/queue/local-workers.js'
import { Worker } from '../../src/queue/worker.js'
import { engineTest } from '../helpers/engines.js'
import { eventually, FAST_TIMINGS, resolverOf, testConfig, testLogger } from './helpers.js'

/** The guard against a regression that hangs: a wait still going after this is a failure, not a hang. */
const HANG_MS = 30_000

type Tap = Parameters<Parameters<typeof engineTest>[2]>[0]

const diskFull = (): DiskError => new DiskError('disk_full', 'The disk is full (test); nothing was written.')

/**
 * The same database whose bookkeeping writes (job outcomes) are refused while `refusing` is set,
 * as a disk past its reserve refuses them.
 */
function refusingOutcomes(db: Database): { db: Database; refuse(on: boolean): void } {
  let refusing = false
  const guarded = (exec: SqlExecutor): SqlExecutor => ({
    query: (text, params, options) => (refusing && /\bUPDATE\b[\s\S]*\bjob AS j\b/.test(text) ? Promise.reject(diskFull()) : exec.query(text, params, options)),
    exec: (sql) => exec.exec(sql),
  })
  const bookkeeping: Database = {
    capabilities: db.capabilities,
    location: db.location,
    ...guarded(db),
    transaction: (fn) => db.transaction((tx) => fn(guarded(tx))),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
  }
  const wrapped: Database = { ...bookkeeping, query: (text, params, options) => db.query(text, params, options), forBookkeeping: () => bookkeeping }
  bookkeeping.forBookkeeping = () => bookkeeping
  return { db: wrapped, refuse: (on) => (refusing = on) }
}

async function settle<T>(promise: Promise<T>): Promise<T | Error | 'still waiting'> {
  // The guard's timer is cleared once the wait ends: left running, it held the test process
  // open for its whole 30 s after the last test.
  let guard: NodeJS.Timeout | undefined
  const hang = new Promise<'still waiting'>((resolve) => (guard = setTimeout(() => resolve('still waiting'), HANG_MS)))
  try {
    return await Promise.race([promise.catch((err: unknown) => err as Error), hang])
  } finally {
    clearTimeout(guard)
  }
}

/** A worker on `disk` whose sync handler has the disk refuse outcomes before it ends with `end()`; and a queue to submit to. */
async function refusingWorker(t: Tap, disk: ReturnType<typeof refusingOutcomes>, end: () => unknown): Promise<Awaited<ReturnType<typeof openQueue>>> {
  const worker = new Worker({
    db: disk.db,
    config: testConfig(),
    logger: testLogger(),
    timings: FAST_TIMINGS,
    bossRuntime: false,
    resolver: resolverOf({
      sync: async () => {
        disk.refuse(true)
        return end()
      },
    }),
  })
  t.teardown(() => worker.stop())
  await worker.start()
  return openQueue({ db: disk.db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
}

for (const outcome of ['failed', 'completed'] as const) {
  engineTest(t, `a job ${outcome} by a worker that cannot store the outcome ends its waiter with that outcome`, async (t, { db }) => {
    const disk = refusingOutcomes(db)
    const queue = await refusingWorker(t, disk, () => {
      if (outcome === 'failed') throw diskFull()
      return { imported: 3 }
    })
    const ended = await settle(queue.submitAndWait('sync', {}))
    if (outcome === 'failed') {
      t.ok(ended instanceof Error, 'the wait ended with an error')
      t.equal((ended as DiskError).code, 'disk_full', "with the job's own error")
    } else {
      t.same((ended as { result?: unknown }).result, { imported: 3 }, "the wait ended with the job's result")
    }
    disk.refuse(false)
    const stored = await eventually(async () => {
      const jobs = await queue.list({ name: 'sync' })
      return jobs[0]?.status === 'active' ? undefined : jobs[0]
    }, 'the outcome to be stored once writes work again')
    t.equal(stored.status, outcome === 'failed' ? 'dead' : 'completed', 'and the record catches up once the disk has room')
  })
}

engineTest(t, 'a wait that begins after its job ended here unrecorded still ends with the outcome', async (t, { db }) => {
  const disk = refusingOutcomes(db)
  const queue = await refusingWorker(t, disk, () => ({ imported: 5 }))
  const job = await queue.submit('sync', {})
  const deps = executionDeps({ db: disk.db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS }, { retryWrites: false })
  // The outcome is told before this wait subscribes: it must not be missed.
  await eventually(async () => (deps.signals.unrecordedOutcome(job.id) ? true : undefined), 'the outcome to be refused')
  const ended = await settle(awaitJob(deps, (await queue.get(job.id))!))
  t.same((ended as { result?: unknown }).result, { imported: 5 }, "the late wait ended with the job's result")
  disk.refuse(false)
  await eventually(async () => ((await queue.get(job.id))?.status === 'completed' ? true : undefined), 'the record to catch up')
  await eventually(async () => (deps.signals.unrecordedOutcome(job.id) ? undefined : true), 'the kept outcome to be let go once stored')
  t.pass('the record speaks for the job again')
})

engineTest(t, 'a job held by a process that stopped beating is run again where it can be, else its wait ends with job_stalled', async (t, { db }) => {
  const ctx = { db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ sync: async () => 'run again' }) }
  const queue = await openQueue(ctx)
  const job = await queue.submit('sync', {})
  t.ok(await claimJob(db, 'sync', job.id), 'claimed by a process of another machine')
  await db.query(
    `INSERT INTO minion_workers (id, kind, pid, host, names, concurrency, active_jobs, process_space, heartbeat_at)
     VALUES ($1::uuid, 'worker', 999999, 'elsewhere', ARRAY['sync'], 1, ARRAY[$2::uuid], 'elsewhere', now() - interval '1 hour')`,
    [randomUUID(), job.id],
  )
  const current = (await queue.get(job.id))!
  const ended = await settle(awaitJob(executionDeps(ctx, { retryWrites: false }), current))
  if (db.capabilities.multiProcess) {
    t.equal((ended as { result?: unknown }).result, 'run again', 'the job went back to the queue and this waiter ran it')
  } else {
    t.ok(ended instanceof Error, 'the wait ended with an error')
    t.equal((ended as DiskError).code, 'job_stalled', 'naming the stall')
    t.match((ended as DiskError).hint, /jobs (get|cancel)/, 'and what to do')
  }
})

engineTest(t, 'a job that no live worker will claim ends its wait with worker_unavailable, or disk_full when the disk is why', async (t, { db }) => {
  const ctx = { db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ sync: async () => 'inline' }) }
  // A worker of this process that serves the job but never claims (its writes refused): on the
  // embedded engine the waiter leaves the job to it. On the server engine nobody live serves
  // it, so the waiter runs the job itself.
  const unregister = registerLocalWorker(db, randomUUID(), ['sync'])
  t.teardown(unregister)
  const queue = await openQueue(ctx)
  const ended = await settle(queue.submitAndWait('sync', {}))
  if (db.capabilities.multiProcess) {
    t.equal((ended as { result?: unknown }).result, 'inline', 'the waiter ran the job itself')
    t.pass('no worker to wait for')
  } else {
    t.ok(ended instanceof Error, 'the wait ended with an error')
    t.equal((ended as DiskError).code, 'worker_unavailable', 'naming the missing worker')
  }
})

const MIB = 1024 * 1024
const RESERVE = 32 * MIB

/** An embedded brain whose free-space reading the test sets. */
async function brainOnDisk(t: Tap): Promise<{ db: Database; setFree(bytes: number): void }> {
  let free = 10_000 * MIB
  const template = readEmptyTemplate() ?? undefined
  const db = await openPglite({ dataDir: 'memory', memory: true, ...(template ? { template } : {}), freeSpace: { dir: tmpdir(), reserveBytes: RESERVE, read: () => free } })
  if (!template) await migrate(db)
  t.teardown(() => db.close())
  return { db, setFree: (bytes) => (free = bytes) }
}

t.test("a job is refused at once without room for the log's next segment beyond the reserve", async (t) => {
  const disk = await brainOnDisk(t)
  const queue = await openQueue({ db: disk.db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ sync: async () => 'ran' }) })
  disk.setFree(RESERVE + 8 * MIB)
  await t.rejects(queue.submitAndWait('sync', {}), { code: 'disk_full' }, 'refused before anything is queued')
  t.same(await queue.list({ name: 'sync' }), [], 'and nothing was queued')
  await disk.db.query(`INSERT INTO minion_workers (id, kind, pid, host, names, concurrency) VALUES ($1::uuid, 'inline', 1, 'h', ARRAY['sync'], 1)`, [randomUUID()])
  t.pass('a small write above the reserve still works')
  disk.setFree(RESERVE + 24 * MIB)
  t.equal((await queue.submitAndWait('sync', {})).result, 'ran', 'with room for a segment the job runs')
})

t.test('a wait for a job nobody can claim on a full disk ends with disk_full', async (t) => {
  const disk = await brainOnDisk(t)
  const unregister = registerLocalWorker(disk.db, randomUUID(), ['sync'])
  t.teardown(unregister)
  const queue = await openQueue({ db: disk.db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const job = await queue.submit('sync', {})
  disk.setFree(RESERVE - MIB)
  const ended = await settle(awaitJob(executionDeps({ db: disk.db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS }, { retryWrites: false }), (await queue.get(job.id))!))
  t.ok(ended instanceof Error, 'the wait ended with an error')
  t.equal((ended as DiskError).code, 'disk_full', 'naming the full disk as the reason')
})
