import t from 'tap'
import { randomUUID } from 'node:crypto'
import { openQueue } from '../../src/queue/index.js'
import { claimJob } from '../../src/queue/sql/claim-job.js'
import { rescueStalled } from '../../src/queue/sql/rescue.js'
import { heartbeat } from '../../src/queue/sql/workers.js'
import { runHousekeeping } from '../../src/queue/housekeeping.js'
import { resolveTimings } from '../../src/queue/settings.js'
import { engineTest } from '../helpers/engines.js'
import { FAST_TIMINGS, resolverOf, testConfig, testLogger } from './helpers.js'

const RESCUE = { livenessMs: 300, minAgeMs: 0 }

engineTest(t, 'a job whose process died goes back to waiting, and ends dead once it stalled more than max_stalled', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const job = await queue.submit('sync', {}, { maxStalled: 1 })
  t.ok(await claimJob(db, 'sync', job.id), 'claimed by a process that then dies')
  t.same((await rescueStalled(db, RESCUE)).map((r) => r.id), [job.id])
  t.match(await queue.get(job.id), { status: 'waiting', attempts: 1, error: { class: 'JobStalled', code: 'job_stalled' } })
  t.ok(await claimJob(db, 'sync', job.id), 'claimed again')
  t.match(await queue.get(job.id), { status: 'active', attempts: 2 })
  await rescueStalled(db, RESCUE)
  t.match(await queue.get(job.id), { status: 'dead', attempts: 2, error: { class: 'JobStalled' } }, 'stalled twice with max_stalled 1')
  t.same(await rescueStalled(db, RESCUE), [], 'nothing left to rescue')
})

engineTest(t, 'a job held by a live process, or too young, is not a stall', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const held = await queue.submit('sync', {})
  const young = await queue.submit('embed', {})
  await claimJob(db, 'sync', held.id)
  await claimJob(db, 'embed', young.id)
  await heartbeat(db, { id: randomUUID(), kind: 'worker', names: ['sync'], concurrency: 1 }, [held.id])
  t.same(await rescueStalled(db, { livenessMs: 60_000, minAgeMs: 60_000 }), [], 'both are safe')
  t.same((await rescueStalled(db, { livenessMs: 60_000, minAgeMs: 0 })).map((r) => r.id), [young.id], 'only the unheld one')
  t.equal((await queue.get(held.id))?.status, 'active')
})

engineTest(t, 'opening the queue on a single-process engine rescues jobs a crashed process left active', async (t, { db }) => {
  const first = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  void first
  const { insertJobs } = await import('../../src/queue/boss-sql.js')
  const id = randomUUID()
  await insertJobs(db, [{ id, name: 'sync', data: { payload: {}, timeout_ms: 1000, max_stalled: 1, idempotency_key: null }, priority: 0, retryLimit: 1, expireInSeconds: 100 }])
  await claimJob(db, 'sync', id)
  // A fresh handle is what a new process gets.
  const handle = Object.create(db) as typeof db
  const queue = await openQueue({ db: handle, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const expected = db.capabilities.multiProcess ? 'active' : 'waiting'
  t.equal((await queue.get(id))?.status, expected, db.capabilities.multiProcess ? 'left to the stall rescue (its worker may be alive)' : 'orphan rescued at open')
})

engineTest(t, 'housekeeping runs pg-boss maintenance, rescues stalls and forgets silent processes', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({ embed: async () => 1 }) })
  const done = await queue.submitAndWait('embed', {})
  await db.query(`UPDATE brain_queue.job SET completed_on = now() - interval '2 days' WHERE id = $1`, [done.id])
  await db.query(`INSERT INTO minion_workers (id, kind, pid, host, names, concurrency, heartbeat_at) VALUES ($1, 'worker', 1, 'h', '{sync}', 1, now() - interval '2 days')`, [randomUUID()])
  const result = await runHousekeeping(db, { timings: resolveTimings(FAST_TIMINGS) })
  t.same(result, { rescuedStalled: 0, forgottenWorkers: 1 })
  const archived = await db.query<{ archived: boolean; status: string }>('SELECT archived, status FROM minion_jobs WHERE id = $1', [done.id])
  t.same(archived.rows, [{ archived: true, status: 'completed' }], 'archived, and still readable through minion_jobs')
  t.equal((await queue.get(done.id))?.status, 'completed')
})
