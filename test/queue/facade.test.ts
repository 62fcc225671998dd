import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { NotAvailableError, UsageError } from '../../src/errors/index.js'
import { jobOfError, openQueue } from '../../src/queue/index.js'
import { failStalledAttempt } from '../../src/queue/boss-sql.js'
import type { JobProgress } from '../../src/queue/types.js'
import { claimJob } from '../../src/queue/boss-sql.js'
import { rescueStalled } from '../../src/queue/rescue.js'
import { heartbeat, processSpace, reapDeadWorkers } from '../../src/queue/sql/workers.js'
import { runHousekeeping } from '../../src/queue/housekeeping.js'
import { resolveTimings } from '../../src/queue/settings.js'
import { resolveSyncTarget } from '../../workers/autopilot/sync-target.js'
import { engineTest } from '../helpers/engines.js'
import { FAST_TIMINGS, resolverOf, testConfig, testLogger } from './helpers.js'

function queueOn(db: Parameters<typeof openQueue>[0]['db'], handlers: Parameters<typeof resolverOf>[0] = {}, env: Record<string, string> = {}) {
  return openQueue({ db, config: testConfig(env), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf(handlers) })
}

engineTest(t, 'submit stores a waiting job in the spec vocabulary, in the pg-boss schema this build runs', async (t, { db }) => {
  const queue = await queueOn(db)
  const job = await queue.submit('embed', { mode: 'stale' }, { timeoutMs: 5000, maxStalled: 3, priority: 2 })
  t.match(job, { name: 'embed', status: 'waiting', attempts: 0, maxStalled: 3, timeoutMs: 5000, idempotencyKey: null, result: null, error: null, startedAt: null, completedAt: null })
  t.same(job.data, { mode: 'stale', untrusted_payload: false }, 'data says whether the payload is untrusted')
  t.ok(job.createdAt instanceof Date)
  const row = await db.query<{ status: string; untrusted_payload: boolean; max_stalled: number; timeout_ms: number }>(
    'SELECT status, untrusted_payload, max_stalled, timeout_ms FROM minion_jobs WHERE id = $1',
    [job.id],
  )
  t.same(row.rows[0], { status: 'waiting', untrusted_payload: false, max_stalled: 3, timeout_ms: 5000 }, 'minion_jobs is the record')
  t.same((await queue.get(job.id))?.id, job.id)
  t.equal(await queue.get('00000000-0000-4000-8000-000000000000'), null, 'unknown id')
  t.equal(await queue.get('not-a-uuid'), null, 'malformed id')
  const untrusted = await queue.submit('ingest_capture', { event: {}, untrusted_payload: true, body: 'x' })
  t.equal(untrusted.data.untrusted_payload, true)
  const version = await db.query<{ version: number }>('SELECT version FROM brain_queue.version')
  t.equal(Number(version.rows[0]!.version), 24)
  const queues = await db.query<{ name: string; policy: string }>('SELECT name, policy FROM brain_queue.queue ORDER BY name')
  t.same(queues.rows, [
    { name: 'autopilot-cycle', policy: 'stately' },
    { name: 'capture', policy: 'standard' },
    { name: 'capture_transcript', policy: 'standard' },
    { name: 'embed', policy: 'standard' },
    { name: 'extract', policy: 'standard' },
    { name: 'import', policy: 'standard' },
    { name: 'ingest_capture', policy: 'standard' },
    { name: 'shell', policy: 'standard' },
    { name: 'switch-model', policy: 'standard' },
    { name: 'sync', policy: 'standard' },
  ])
})

engineTest(t, 'the same idempotency key always returns the same job', async (t, { db }) => {
  const queue = await queueOn(db, { embed: async () => 'done' })
  const first = await queue.submit('embed', { n: 1 }, { idempotencyKey: 'client-1:abc' })
  const again = await queue.submit('embed', { n: 2 }, { idempotencyKey: 'client-1:abc' })
  t.equal(again.id, first.id)
  t.same(again.data, { n: 1, untrusted_payload: false }, 'the first submission wins')
  t.equal(again.idempotencyKey, 'client-1:abc')
  const other = await queue.submit('embed', { n: 3 }, { idempotencyKey: 'client-1:def' })
  t.not(other.id, first.id)
  const waited = await queue.submitAndWait('embed', { n: 4 }, { idempotencyKey: 'client-1:abc' })
  t.equal(waited.id, first.id)
  t.equal(waited.status, 'completed')
  const afterCompletion = await queue.submit('embed', { n: 5 }, { idempotencyKey: 'client-1:abc' })
  t.equal(afterCompletion.id, first.id, 'still the same job once it completed')
  t.equal((await queue.list({ name: 'embed' })).length, 2)
})

engineTest(t, 'submitAndWait runs the job in this process when nobody else will, with progress and result', async (t, { db }) => {
  const queue = await queueOn(db, {
    sync: async (ctx) => {
      ctx.progress({ done: 1, total: 2, message: 'half' })
      ctx.progress({ done: 2, total: 2 })
      return { touched: [ctx.data.dir], jobId: ctx.jobId }
    },
  })
  const seen: JobProgress[] = []
  const job = await queue.submitAndWait('sync', { dir: '/notes' }, { onProgress: (p) => seen.push(p) })
  t.match(job, { status: 'completed', attempts: 1, result: { touched: ['/notes'], jobId: job.id } })
  t.ok(job.startedAt && job.completedAt)
  t.same(seen, [
    { done: 1, total: 2, message: 'half' },
    { done: 2, total: 2 },
  ])
  const workers = await db.query('SELECT * FROM minion_workers')
  t.equal(workers.rowCount, 0, 'the inline run deregistered')
})

engineTest(t, 'a failed job ends dead and submitAndWait throws the handler error rebuilt', async (t, { db }) => {
  const queue = await queueOn(db, {
    extract: async () => {
      throw new UsageError('extract_bad_slug', 'Slug x is not valid.', { hint: 'Use lowercase slugs.' })
    },
  })
  const err = await queue.submitAndWait('extract', {}).catch((e: unknown) => e)
  t.ok(err instanceof UsageError, 'same class')
  t.match(err, { errorClass: 'UsageError', code: 'extract_bad_slug', hint: 'Use lowercase slugs.', message: 'Slug x is not valid.' })
  const dead = jobOfError(err)!
  t.match(dead, { name: 'extract', status: 'dead', error: { class: 'UsageError', code: 'extract_bad_slug' } })
  const missing = await queue.submitAndWait('import', { path: '/nowhere' }).catch((e: unknown) => e)
  t.ok(missing instanceof NotAvailableError, 'a capability that has not landed fails as not available')
  t.equal((await queue.stats()).dead, 2)
  t.ok(await queue.retry(dead.id), 'a dead job can be retried')
  t.match(await queue.get(dead.id), { status: 'waiting', attempts: 1 })
})

engineTest(t, 'shell jobs end dead unless shell jobs are allowed', async (t, { db }) => {
  const { default: shell } = await import('../../workers/shell.js')
  const off = await queueOn(db, { shell })
  const err = await off.submitAndWait('shell', { cmd: 'echo hi' }).catch((e: unknown) => e)
  t.match(err, { errorClass: 'NotAvailableError', code: 'shell_jobs_disabled' })
  t.equal(jobOfError(err)?.status, 'dead')
  const on = await queueOn(db, { shell }, { BRAIN_ALLOW_SHELL_JOBS: '1' })
  const ok = await on.submitAndWait('shell', { cmd: 'echo hi' })
  t.match(ok.result, { exit_code: 0, stdout: 'hi\n' })
})

engineTest(t, 'cancel, retry, list, stats, and bad submissions', async (t, { db }) => {
  const queue = await queueOn(db)
  const a = await queue.submit('embed', {})
  const b = await queue.submit('sync', {})
  t.ok(await queue.cancel(a.id))
  t.notOk(await queue.cancel(a.id), 'a dead job cannot be cancelled again')
  t.match(await queue.get(a.id), { status: 'dead', error: { class: 'JobCancelled', code: 'job_cancelled' } })
  t.same(
    (await queue.list({ status: 'dead' })).map((j) => j.id),
    [a.id],
  )
  t.same(
    (await queue.list({ status: 'waiting' })).map((j) => j.id),
    [b.id],
  )
  t.same((await queue.list({ limit: 1 })).length, 1)
  const stats = await queue.stats()
  t.match(stats, { waiting: 1, active: 0, completed: 0, dead: 1, byName: { embed: { dead: 1 }, sync: { waiting: 1 } } })
  t.ok(await queue.retry(a.id), 'a cancelled job can be retried')
  t.equal((await queue.get(a.id))?.status, 'waiting')
  t.notOk(await queue.retry(b.id), 'a waiting job is not retried')
  t.notOk(await queue.retry('00000000-0000-4000-8000-000000000000'))
  await t.rejects(queue.submit('nope' as 'sync', {}), { code: 'unknown_job_name' })
  await t.rejects(queue.submit('sync', [] as unknown as Record<string, unknown>), { code: 'invalid_job_data' })
  await t.rejects(queue.submit('sync', {}, { timeoutMs: 0 }), { code: 'invalid_timeout_ms' })
  await t.rejects(queue.submit('sync', {}, { maxStalled: -1 }), { code: 'invalid_max_stalled' })
  await t.rejects(queue.submit('sync', {}, { idempotencyKey: '' }), { code: 'invalid_idempotency_key' })
})

engineTest(t, 'at most one waiting and one active autopilot cycle', async (t, { db }) => {
  const queue = await queueOn(db)
  const first = await queue.submit('autopilot-cycle', {})
  const second = await queue.submit('autopilot-cycle', { phase: 'sync' })
  t.equal(second.id, first.id, 'a second submission returns the waiting cycle')
  await db.query(`UPDATE brain_queue.job SET state = 'active', started_on = now() WHERE id = $1`, [first.id])
  const third = await queue.submit('autopilot-cycle', {})
  t.not(third.id, first.id, 'with one active, one more may wait')
  const fourth = await queue.submit('autopilot-cycle', {})
  t.equal(fourth.id, third.id)
  const counts = (await queue.stats()).byName['autopilot-cycle']
  t.match(counts, { waiting: 1, active: 1 })
})

const RESCUE = { livenessMs: 300, minAgeMs: 0 }

engineTest(t, 'a job whose process died goes back to waiting, and ends dead once it stalled more than max_stalled; held or young jobs are left alone', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const job = await queue.submit('sync', {}, { maxStalled: 1 })
  t.ok(await claimJob(db, 'sync', job.id), 'claimed by a process that then dies')
  t.same(
    (await rescueStalled(db, RESCUE)).map((r) => r.id),
    [job.id],
  )
  t.match(await queue.get(job.id), { status: 'waiting', attempts: 1, error: { class: 'JobStalled', code: 'job_stalled' } })
  t.ok(await claimJob(db, 'sync', job.id), 'claimed again')
  t.match(await queue.get(job.id), { status: 'active', attempts: 2 })
  await rescueStalled(db, RESCUE)
  t.match(await queue.get(job.id), { status: 'dead', attempts: 2, error: { class: 'JobStalled' } }, 'stalled twice with max_stalled 1')
  t.same(await rescueStalled(db, RESCUE), [], 'nothing left to rescue')
  const held = await queue.submit('sync', {})
  const young = await queue.submit('embed', {})
  await claimJob(db, 'sync', held.id)
  await claimJob(db, 'embed', young.id)
  await heartbeat(db, { id: randomUUID(), kind: 'worker', names: ['sync'], concurrency: 1 }, [held.id])
  t.same(await rescueStalled(db, { livenessMs: 60_000, minAgeMs: 60_000 }), [], 'both are safe')
  t.same(
    (await rescueStalled(db, { livenessMs: 60_000, minAgeMs: 0 })).map((r) => r.id),
    [young.id],
    'only the unheld one',
  )
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
  t.match(result, { rescued_stalled: 0, forgotten_workers: 1 })
  if (db.capabilities.autoAnalyze) t.same(result.analyzed_tables, [], 'the server engine analyzes on its own')
  else t.ok(result.analyzed_tables.includes('public.minion_workers'), `the workers table, never analyzed, was: ${result.analyzed_tables.join(', ')}`)
  const archived = await db.query<{ archived: boolean; status: string }>('SELECT archived, status FROM minion_jobs WHERE id = $1', [done.id])
  t.same(archived.rows, [{ archived: true, status: 'completed' }], 'archived, and still readable through minion_jobs')
  t.equal((await queue.get(done.id))?.status, 'completed')
})

engineTest(t, 'sync resolves the source from the directory by sources.local_path', async (t, { db }) => {
  await db.query(`INSERT INTO sources (id, name, local_path) VALUES ('notes', 'Notes', '/home/me/notes')`)
  t.same(await resolveSyncTarget(db, '/home/me/notes/'), { dir: '/home/me/notes', sourceId: 'notes', data: { sourceId: 'notes' } })
  t.same(await resolveSyncTarget(db, '/elsewhere'), { dir: '/elsewhere', sourceId: null, data: { repoPath: '/elsewhere' } }, 'no row: global bookmark')
  t.same(await resolveSyncTarget(db, null), { dir: null, sourceId: null, data: { all: true } })
  await db.exec('ALTER TABLE sources RENAME TO sources_gone')
  t.same((await resolveSyncTarget(db, '/home/me/notes')).sourceId, null, 'no sources table: global bookmark')
})

engineTest(t, 'the jobs a dead process on this machine held are taken back at once; a live or unknown one keeps them', async (t, { db }) => {
  const queue = await queueOn(db)
  const held: string[] = []
  for (const key of ['dead', 'live', 'unknown']) {
    const job = await queue.submit('sync', { key })
    t.ok(await claimJob(db, 'sync', job.id))
    held.push(job.id)
  }
  const here = processSpace()
  t.ok(here, 'this machine tells its pid space')
  const gone = spawnSync(process.execPath, ['-e', '']).pid
  const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' })
  t.teardown(() => void alive.kill('SIGKILL'))
  const register = (pid: number, space: string | null, job: string) =>
    db.query(`INSERT INTO minion_workers (id, kind, pid, host, names, concurrency, active_jobs, process_space) VALUES ($1, 'worker', $2, 'h', '{sync}', 1, $3::uuid[], $4)`, [
      randomUUID(),
      pid,
      [job],
      space,
    ])
  await register(gone, here, held[0]!)
  await register(alive.pid!, here, held[1]!)
  await register(gone, 'another-machine', held[2]!)
  const orphaned = await reapDeadWorkers(db)
  t.same(orphaned, [held[0]], 'only the dead process of this pid space')
  t.equal((await db.query('SELECT 1 FROM minion_workers')).rowCount, 2, 'its registration is gone, the others stay')
  t.same(
    (await rescueStalled(db, { livenessMs: 60_000, minAgeMs: 0, ids: orphaned })).map((r) => r.id),
    [held[0]],
  )
  t.match(await queue.get(held[0]!), { status: 'waiting', error: { code: 'job_stalled' } }, 'back in the queue')
  t.equal((await queue.get(held[1]!))?.status, 'active')
  t.equal((await queue.get(held[2]!))?.status, 'active')
  t.same(await reapDeadWorkers(db), [], 'nothing more to reap')
})

engineTest(t, 'a rescuer that saw a stalled attempt does not fail the attempt after it', async (t, { db }) => {
  const queue = await queueOn(db)
  const job = await queue.submit('sync', {}, { maxStalled: 3 })
  t.ok(await claimJob(db, 'sync', job.id), 'attempt 1, whose process dies')
  const stalled = { error: { class: 'JobStalled', code: 'job_stalled', message: 'gone' } }
  t.equal(await failStalledAttempt(db, 'sync', job.id, 0, stalled), 1, 'the first rescuer puts it back')
  t.ok(await claimJob(db, 'sync', job.id), 'a worker claims attempt 2')
  t.equal(await failStalledAttempt(db, 'sync', job.id, 0, stalled), 0, 'a slower rescuer that saw attempt 1 changes nothing')
  t.match(await queue.get(job.id), { status: 'active', attempts: 2 })
  t.equal(await failStalledAttempt(db, 'sync', job.id, 1, stalled), 1, 'attempt 2 itself can still be rescued')
  t.equal((await queue.get(job.id))?.status, 'waiting')
})
