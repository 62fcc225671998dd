// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { openQueue, type JobProgress } from '../../src/queue/index.js'
import type { JobHandler } from '../../src/queue/handler.js'
import { JobSignals, type JobEvent } from '../../src/queue/signals.js'
import { Worker, type WorkerOptions } from '../../src/queue/worker.js'
import { engineTest } from '../helpers/engines.js'
import { eventually, FAST_TIMINGS, honoursAbort, ignoresAbort, resolverOf, sleep, testConfig, testLogger } from './helpers.js'

function startWorker(t: Tap, db: Database, handlers: Parameters<typeof resolverOf>[0], options: Partial<WorkerOptions> = {}): Promise<Worker> {
  const worker = new Worker({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf(handlers), bossRuntime: false, ...options })
  t.teardown(() => worker.stop())
  return worker.start().then(() => worker)
}
type Tap = Parameters<Parameters<typeof engineTest>[2]>[0]

function statusOf(queue: Awaited<ReturnType<typeof openQueue>>, id: string, status: string) {
  return eventually(async () => {
    const job = await queue.get(id)
    return job?.status === status ? job : undefined
  }, `job ${id} to be ${status}`)
}

engineTest(t, 'a worker wakes on a signal (not a poll) and runs what is submitted', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const worker = await startWorker(t, db, { embed: async (ctx) => ({ n: ctx.data.n, by: 'worker' }) }, { concurrency: 4 })
  const ids: string[] = []
  for (let n = 0; n < 20; n++) ids.push((await queue.submit('embed', { n })).id)
  // The worker polls once a minute in these tests: only a wake-up can finish this in time.
  for (const id of ids) t.equal((await statusOf(queue, id, 'completed')).result && 'done', 'done')
  t.equal(worker.counters.completed, 20)
  const rows = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM minion_workers WHERE kind = 'worker'`)
  t.equal(Number(rows.rows[0]!.n), 1, 'the worker is registered while it runs')
  await worker.stop()
  const after = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM minion_workers`)
  t.equal(Number(after.rows[0]!.n), 0, 'and deregistered once stopped')
})

engineTest(t, 'submitAndWait uses a live worker (on the embedded engine: one in this process, as in the brain service), with its progress', async (t, { db }) => {
  const worker: JobHandler = async (ctx) => {
    ctx.progress({ done: 1, total: 2 })
    ctx.progress({ done: 2, total: 2, message: 'end' })
    return 'worker'
  }
  await startWorker(t, db, { sync: worker })
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ sync: async () => 'inline' }) })
  const seen: JobProgress[] = []
  const job = await queue.submitAndWait('sync', {}, { onProgress: (p) => seen.push(p) })
  t.equal(job.result, 'worker', 'the worker ran it, not the waiting caller')
  t.same(
    seen,
    [
      { done: 1, total: 2 },
      { done: 2, total: 2, message: 'end' },
    ],
    'progress reached the waiting caller',
  )
})

engineTest(t, 'a handler that ignores its abort ends dead after timeout + eviction while the worker keeps serving', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const worker = await startWorker(t, db, { shell: ignoresAbort, embed: async () => 'ok' }, { concurrency: 2 })
  const stuck = await queue.submit('shell', {}, { timeoutMs: 100 })
  await statusOf(queue, stuck.id, 'active')
  const during = await queue.submit('embed', {})
  await statusOf(queue, during.id, 'completed')
  const dead = await statusOf(queue, stuck.id, 'dead')
  t.match(dead.error, { class: 'JobEvicted', code: 'job_evicted' })
  t.ok(dead.completedAt!.getTime() - dead.startedAt!.getTime() >= 100 + 300 - 20, 'not before timeout + eviction')
  // The dead row is written before the worker's own bookkeeping settles, so wait for it.
  t.equal(await eventually(async () => (worker.inFlightCount === 0 ? 0 : undefined), 'the in-flight set to empty'), 0, 'removed from the in-flight set')
  const after = await Promise.all([queue.submit('embed', {}), queue.submit('embed', {})])
  for (const job of after) await statusOf(queue, job.id, 'completed')
  t.equal(worker.counters.evicted, 1)
})

engineTest(t, 'a job that honours its timeout ends dead with job_timeout', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  await startWorker(t, db, { shell: honoursAbort })
  const job = await queue.submit('shell', {}, { timeoutMs: 50 })
  t.match((await statusOf(queue, job.id, 'dead')).error, { class: 'JobTimeout', code: 'job_timeout' })
})

engineTest(t, 'cancelling a running job aborts its handler', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  let aborted: unknown = null
  await startWorker(t, db, {
    shell: (ctx) => {
      ctx.signal.addEventListener('abort', () => (aborted = ctx.signal.reason))
      return honoursAbort(ctx)
    },
  })
  const job = await queue.submit('shell', {})
  await statusOf(queue, job.id, 'active')
  t.ok(await queue.cancel(job.id))
  await eventually(async () => (aborted ? true : undefined), 'the handler to be aborted')
  t.match(aborted, { errorClass: 'JobCancelled' })
  t.match(await queue.get(job.id), { status: 'dead', error: { class: 'JobCancelled' } })
})

engineTest(t, 'stopping a worker returns its running jobs to the queue without spending a stall', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const first = await startWorker(t, db, { shell: honoursAbort })
  const job = await queue.submit('shell', {}, { maxStalled: 0 })
  await statusOf(queue, job.id, 'active')
  await first.stop()
  const back = await queue.get(job.id)
  t.match(back, { status: 'waiting', attempts: 1, error: { class: 'WorkerShutdown' } })
  await startWorker(t, db, { shell: async () => 'second worker' })
  t.equal((await statusOf(queue, job.id, 'completed')).result, 'second worker', 'max_stalled 0 and still retried')
})

engineTest(t, 'the memory watchdog stops the worker after a job; the jobs it held count as stalls', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  let rss = 100 * 1024 * 1024
  const worker = await startWorker(
    t,
    db,
    { shell: honoursAbort, embed: async () => 'small' },
    {
      concurrency: 2,
      maxRssMb: 2048,
      sampleRss: async () => rss,
    },
  )
  const held = await queue.submit('shell', {}, { maxStalled: 1 })
  await statusOf(queue, held.id, 'active')
  const light = await queue.submit('embed', {})
  await statusOf(queue, light.id, 'completed')
  t.equal(await Promise.race([worker.done, sleep(100).then(() => 'running')]), 'running', 'under the limit it keeps going')
  rss = 3 * 1024 * 1024 * 1024
  const trigger = await queue.submit('embed', {})
  t.equal(await worker.done, 'memory', 'the check after the next job fires the watchdog')
  t.equal((await queue.get(trigger.id))?.status, 'completed')
  t.match(await queue.get(held.id), { status: 'waiting', attempts: 1, error: { class: 'WorkerShutdown', code: 'worker_shutdown' } })
  const raw = await db.query<{ retry_limit: number }>('SELECT retry_limit FROM brain_queue.job WHERE id = $1', [held.id])
  t.equal(Number(raw.rows[0]!.retry_limit), 1, 'the stall budget was not extended')
})

engineTest(t, "a worker runs pg-boss's maintenance and keeps the recurring autopilot schedule", async (t, { db }) => {
  const first = await startWorker(t, db, {}, { bossRuntime: true, autopilotCron: '*/30 * * * *' })
  const scheduled = await db.query<{ name: string; cron: string; data: { payload: unknown; max_stalled: number } }>('SELECT name, cron, data FROM brain_queue.schedule')
  t.match(scheduled.rows, [{ name: 'autopilot-cycle', cron: '*/30 * * * *', data: { payload: { untrusted_payload: false }, max_stalled: 1 } }])
  await first.stop()
  const second = await startWorker(t, db, {}, { bossRuntime: true, autopilotCron: null })
  t.equal((await db.query('SELECT name FROM brain_queue.schedule')).rowCount, 0, 'a worker without a schedule removes it')
  await second.stop()
  const bad = new Worker({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}), autopilotCron: 'every tuesday' })
  await t.rejects(bad.start(), { errorClass: 'UsageError', code: 'invalid_cron' })
  await bad.stop()
})

engineTest(t, 'a worker whose start fails part way is undone: a waiting caller runs its job itself', async (t, { db }) => {
  // The schedule is refused after the worker registered and listened, as a full disk refuses
  // pg-boss's set-up; a half-started worker used to keep its registration and never claim.
  const failed = new Worker({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ sync: async () => 'worker' }), autopilotCron: 'every tuesday' })
  await t.rejects(failed.start(), { code: 'invalid_cron' })
  t.equal(await Promise.race([failed.done, sleep(5000).then(() => 'still running')]), 'requested', 'the failed worker stopped')
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ sync: async () => 'inline' }) })
  const job = await queue.submitAndWait('sync', {})
  t.equal(job.result, 'inline', 'the caller ran the job: nothing waits for the failed worker')
  const workers = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM minion_workers WHERE kind = 'worker'`)
  t.equal(Number(workers.rows[0]!.n), 0, 'and it is not registered')
})

engineTest(t, 'signals reach subscribers; a lost LISTEN connection is noticed and re-established', async (t, { db }) => {
  const signals = new JobSignals(db)
  const seen: JobEvent[] = []
  const unsubscribe = await signals.subscribe((e) => seen.push(e))
  await signals.publish({ e: 'new', name: 'sync' })
  await eventually(async () => (seen.length === 1 ? true : undefined), 'the first event')
  t.same(seen, [{ e: 'new', name: 'sync' }])
  t.equal(signals.crossProcess, db.capabilities.multiProcess)
  if (db.capabilities.multiProcess) {
    t.ok(await signals.checkListening(), 'healthy')
    await eventually(async () => ((await signals.checkListening()) ? true : undefined), 'the ping to come back')
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`)
    // Within two checks a ping goes unanswered (one sent just before the loss may still arrive).
    let noticed = false
    for (let i = 0; i < 3 && !noticed; i++) {
      await new Promise((r) => setTimeout(r, 100))
      noticed = !(await signals.checkListening())
    }
    t.ok(noticed, 'a ping sent after the loss never came back')
    await signals.publish({ e: 'new', name: 'embed' })
    await eventually(async () => (seen.some((e) => e.e === 'new' && e.name === 'embed') ? true : undefined), 'events after re-listening')
    t.notOk(
      seen.some((e) => e.e === 'ping'),
      'pings are not delivered to subscribers',
    )
  }
  await unsubscribe()
})

engineTest(t, "pg-boss's internal queues stay out of minion_jobs", async (t, { db }) => {
  await db.query(`SELECT brain_queue.create_queue('__pgboss__send-it', '{"policy":"short"}')`)
  await db.query(`INSERT INTO brain_queue.job (name, data) VALUES ('__pgboss__send-it', '{}')`)
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  t.same(await queue.list(), [])
  t.same((await queue.stats()).byName, {})
})
