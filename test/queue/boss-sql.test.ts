// test-runner: shares a process
/**
 * Each statement the queue owns for pg-boss's tables, run against the schema migration 0100
 * installs, on both engines; and the pg-boss release they are written for is the one installed.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import t from 'tap'
import type { SqlExecutor } from '../../src/db/types.js'
import {
  cancelJobs,
  failStalledAttempt,
  failWithRetry,
  fetchJobs,
  insertJobs,
  maintenanceSql,
  PG_BOSS_SCHEMA_VERSION,
  PG_BOSS_VERSION,
  resumeJobs,
  retryJobs,
  type JobEnvelope,
} from '../../src/queue/boss-sql.js'
import type { JobName } from '../../src/queue/types.js'
import { engineTest } from '../helpers/engines.js'

interface Row {
  state: string
  priority: number
  retry_limit: number
  retry_count: number
  expire_seconds: number
  keep_days: number
  policy: string
  completed: boolean
  output: unknown
  data: JobEnvelope
}

const envelope = (n: number): JobEnvelope => ({ payload: { n }, timeout_ms: 60_000, max_stalled: 1, idempotency_key: null })

async function insert(db: SqlExecutor, name: JobName, options: { id?: string; priority?: number; retryLimit?: number } = {}): Promise<string> {
  const id = options.id ?? randomUUID()
  await insertJobs(db, [{ id, name, data: envelope(1), priority: options.priority ?? 0, retryLimit: options.retryLimit ?? 1, expireInSeconds: 90 }])
  return id
}

async function row(db: SqlExecutor, id: string): Promise<Row | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT state::text AS state, priority, retry_limit, retry_count, EXTRACT(epoch FROM expire_in)::integer AS expire_seconds,
       round(EXTRACT(epoch FROM keep_until - created_on) / 86400)::integer AS keep_days, policy, completed_on IS NOT NULL AS completed, output, data
     FROM brain_queue.job WHERE id = $1`,
    [id],
  )
  return rows[0]
}

async function count(db: SqlExecutor, sql: string): Promise<number> {
  const { rows } = await db.query<{ n: number | string }>(sql)
  return Number(rows[0]?.n ?? 0)
}

t.test('the statements are written for the pg-boss release package.json pins and node_modules holds', async (t) => {
  const pinned = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies['pg-boss']
  t.equal(pinned, PG_BOSS_VERSION, 'an exact pin: a new release is a reviewed change of these statements')
  const installed = (createRequire(import.meta.url)('pg-boss/package.json') as { version: string }).version
  t.equal(installed, PG_BOSS_VERSION)
})

engineTest(t, 'insert fills the columns pg-boss reads, from the queue row, and skips a conflict', async (t, { db }) => {
  const { rows } = await db.query<{ version: number | string }>('SELECT version FROM brain_queue.version')
  t.equal(Number(rows[0]!.version), PG_BOSS_SCHEMA_VERSION, 'the schema the statements are written for')
  const id = await insert(db, 'embed', { priority: 2, retryLimit: 3 })
  t.match(await row(db, id), { state: 'created', priority: 2, retry_limit: 3, retry_count: 0, expire_seconds: 90, keep_days: 14, policy: 'standard', completed: false, data: envelope(1) })
  await insertJobs(db, [{ id, name: 'embed', data: envelope(2), priority: 0, retryLimit: 1, expireInSeconds: 5 }])
  t.match(await row(db, id), { priority: 2, data: envelope(1) }, 'the same id is skipped, not overwritten')
  const cycle = await insert(db, 'autopilot-cycle')
  const second = await insert(db, 'autopilot-cycle')
  t.equal((await row(db, cycle))?.policy, 'stately')
  t.equal(await row(db, second), undefined, "a stately queue's second waiting job is skipped")
})

engineTest(t, 'fetch claims by priority then age, one per stately queue, and counts re-claims', async (t, { db }) => {
  const low = await insert(db, 'embed', { priority: 0 })
  const high = await insert(db, 'embed', { priority: 5 })
  const mid = await insert(db, 'embed', { priority: 1 })
  const claimed = await fetchJobs(db, 'embed', 2)
  t.same(claimed.map((c) => c.id).sort(), [high, mid].sort())
  t.same(
    claimed.map((c) => c.fence),
    [0, 0],
  )
  t.same(claimed[0]!.data, envelope(1))
  t.equal((await row(db, low))?.state, 'created')
  t.equal((await row(db, high))?.state, 'active')
  t.same(await fetchJobs(db, 'sync', 5), [], 'another queue has nothing')

  // A claim after an attempt (started_on set) counts it.
  t.equal(await failWithRetry(db, 'embed', [high], { error: 'stalled' }), 1)
  const again = await fetchJobs(db, 'embed', 5)
  t.same(again.map((c) => c.id).sort(), [low, high].sort())
  t.equal(again.find((c) => c.id === high)?.fence, 1)

  const cycle = await insert(db, 'autopilot-cycle')
  t.equal((await fetchJobs(db, 'autopilot-cycle', 5)).length, 1)
  const next = await insert(db, 'autopilot-cycle')
  t.same(await fetchJobs(db, 'autopilot-cycle', 5), [], 'a stately queue with an active job claims nothing more')
  t.equal((await row(db, cycle))?.state, 'active')
  t.equal((await row(db, next))?.state, 'created')
})

engineTest(t, 'a job is due the instant it is inserted', async (t, { db }) => {
  // Inside one transaction now() does not move: a worker woken by a new job fetches within the
  // clock tick of its insert as often as not (the embedded engine's clock reads milliseconds).
  const claimed = await db.transaction(async (tx) => {
    const id = await insert(tx, 'embed')
    return { id, jobs: await fetchJobs(tx, 'embed', 5) }
  })
  t.same(
    claimed.jobs.map((j) => j.id),
    [claimed.id],
    'claimed in the same instant',
  )
})

engineTest(t, 'cancel, resume and retry change only the states they name', async (t, { db }) => {
  const waiting = await insert(db, 'extract')
  const other = await insert(db, 'extract')
  t.equal(await cancelJobs(db, 'extract', [waiting]), 1)
  t.match(await row(db, waiting), { state: 'cancelled', completed: true })
  t.equal(await cancelJobs(db, 'extract', [waiting]), 0, 'a cancelled job is not cancelled again')
  t.equal(await cancelJobs(db, 'embed', [other]), 0, 'the name must match')
  t.equal(await resumeJobs(db, 'extract', [waiting, other]), 1, 'only the cancelled one resumes')
  t.match(await row(db, waiting), { state: 'created', completed: false })
  t.equal(await retryJobs(db, 'extract', [waiting]), 0, 'a waiting job is not failed')

  await fetchJobs(db, 'extract', 5)
  t.equal(await failWithRetry(db, 'extract', [waiting], { error: 'first' }), 1)
  t.match(await row(db, waiting), { state: 'retry', completed: false, output: { error: 'first' } }, 'retry_count 0 < retry_limit 1: one more attempt')
  await fetchJobs(db, 'extract', 5)
  t.equal(await failWithRetry(db, 'extract', [waiting], { error: 'second' }), 1)
  t.match(await row(db, waiting), { state: 'failed', completed: true, retry_count: 1, output: { error: 'second' } }, 'out of attempts')
  t.equal(await retryJobs(db, 'extract', [waiting]), 1)
  t.match(await row(db, waiting), { state: 'retry', retry_limit: 2 })
})

engineTest(t, 'a stall is failed only in the attempt it happened in; a stately queue keeps one retry', async (t, { db }) => {
  const id = await insert(db, 'sync', { retryLimit: 2 })
  await fetchJobs(db, 'sync', 1)
  t.equal(await failStalledAttempt(db, 'sync', id, 1, { error: 'stale' }), 0, 'another attempt is left alone')
  t.equal(await failStalledAttempt(db, 'sync', id, 0, { error: 'stalled' }), 1)
  t.match(await row(db, id), { state: 'retry', output: { error: 'stalled' } })
  t.equal(await failStalledAttempt(db, 'sync', id, 0, { error: 'again' }), 0, 'a job that is not active is left alone')

  const first = await insert(db, 'autopilot-cycle', { retryLimit: 3 })
  await fetchJobs(db, 'autopilot-cycle', 1)
  t.equal(await failWithRetry(db, 'autopilot-cycle', [first], { error: 'one' }), 1)
  const second = await insert(db, 'autopilot-cycle', { retryLimit: 3 })
  t.same(
    (await fetchJobs(db, 'autopilot-cycle', 1)).map((c) => c.id),
    [first],
    'the retry was waiting first',
  )
  t.equal((await row(db, second))?.state, 'created')
  t.equal(await failWithRetry(db, 'autopilot-cycle', [first], { error: 'two' }), 1)
  t.equal((await row(db, first))?.state, 'retry')
  const [claimed] = await fetchJobs(db, 'autopilot-cycle', 1)
  t.equal(claimed?.id, first)
  await db.query(`UPDATE brain_queue.job SET state = 'retry' WHERE id = $1`, [second])
  t.equal(await failWithRetry(db, 'autopilot-cycle', [first], { error: 'three' }), 1)
  t.match(await row(db, first), { state: 'failed', completed: true }, 'the queue already has a job waiting to retry')
})

engineTest(t, 'maintenance expires overdue active jobs, archives finished ones and drops old archive rows', async (t, { db }) => {
  const overdue = await insert(db, 'embed', { retryLimit: 0 })
  const running = await insert(db, 'embed', { retryLimit: 0 })
  await fetchJobs(db, 'embed', 5)
  await db.query(`UPDATE brain_queue.job SET started_on = now() - interval '1 hour' WHERE id = $1`, [overdue])
  const [expire, archive, drop] = maintenanceSql({ archiveAfterSeconds: 3600, deleteAfterDays: 1 })
  await db.exec(expire!)
  t.match(await row(db, overdue), { state: 'failed', completed: true, output: { value: { message: /timeout/ } } })
  t.equal((await row(db, running))?.state, 'active', 'a job inside its lease runs on')

  await db.exec(archive!)
  t.ok(await row(db, overdue), 'finished less than an hour ago: kept')
  await db.query(`UPDATE brain_queue.job SET completed_on = now() - interval '2 hours' WHERE id = $1`, [overdue])
  await db.exec(archive!)
  t.equal(await row(db, overdue), undefined)
  t.equal(await count(db, `SELECT count(*) AS n FROM brain_queue.archive WHERE id = '${overdue}'`), 1, 'moved to the archive')
  t.ok(await row(db, running), 'an unfinished job is not archived')

  await db.exec(drop!)
  t.equal(await count(db, 'SELECT count(*) AS n FROM brain_queue.archive'), 1, 'archived today: kept')
  await db.query(`UPDATE brain_queue.archive SET archived_on = now() - interval '2 days'`)
  await db.exec(drop!)
  t.equal(await count(db, 'SELECT count(*) AS n FROM brain_queue.archive'), 0)
})
