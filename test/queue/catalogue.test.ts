// test-runner: shares a process
import t from 'tap'
import { UsageError, ValidationError } from '../../src/errors/index.js'
import { checkJobData, countJobsOf, findJobIdByKey, openQueue, queueHealthCounts } from '../../src/queue/index.js'
import { engineTest } from '../helpers/engines.js'
import { FAST_TIMINGS, resolverOf, testConfig, testLogger } from './helpers.js'

function queueOn(db: Parameters<typeof openQueue>[0]['db']) {
  return openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
}

async function jobCount(db: Parameters<typeof openQueue>[0]['db']): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM minion_jobs')
  return Number(rows[0]!.n)
}

engineTest(t, 'submit refuses data its job schema refuses, with the job own error, and enqueues nothing', async (t, { db }) => {
  const queue = await queueOn(db)
  // @ts-expect-error an import job needs a path: the catalogue makes this a compile error
  const noPath = await queue.submit('import', { sourceId: 'default' }).catch((e: unknown) => e)
  t.ok(noPath instanceof UsageError)
  t.match(noPath, { code: 'import_requires_path' })
  // @ts-expect-error the embed mode is one of two words
  const badMode = await queue.submit('embed', { mode: 'sometimes' }).catch((e: unknown) => e)
  t.ok(badMode instanceof ValidationError)
  t.match(badMode, { code: 'embed_invalid_mode' })
  t.equal(await jobCount(db), 0, 'no job was enqueued')
  const ok = await queue.submit('import', { path: '/tmp/notes', noEmbed: true })
  t.equal(ok.status, 'waiting')
  t.equal(await jobCount(db), 1)
  await queue.close()
})

t.test('checkJobData validates a name known only at run time with the same schema', async (t) => {
  t.throws(() => checkJobData('switch-model', {}), { code: 'switch_model_invalid' })
  t.throws(() => checkJobData('capture', { content: '  ' }), { code: 'capture_empty' })
  t.same(checkJobData('capture', { content: 'hello' }), { content: 'hello' }, 'the data itself comes back, typed')
})

engineTest(t, 'the queue answers what callers outside it ask of minion_jobs', async (t, { db }) => {
  const queue = await queueOn(db)
  t.same(await queueHealthCounts(db), { dead: 0, waiting: 0, active: 0, stuck: 0 })
  const first = await queue.submit('ingest_capture', { event: {}, client_id: 'a' }, { idempotencyKey: 'a:1' })
  await queue.submit('ingest_capture', { event: {}, client_id: 'a' })
  await queue.submit('ingest_capture', { event: {}, client_id: 'b' })
  await queue.submit('embed', { mode: 'all' })
  t.equal(await findJobIdByKey(db, 'ingest_capture', 'a:1'), first.id)
  t.equal(await findJobIdByKey(db, 'ingest_capture', 'a:2'), null)
  t.equal(await findJobIdByKey(db, 'embed', 'a:1'), null, 'the key belongs to one job name')
  t.same(await countJobsOf(db, 'ingest_capture', { statuses: ['waiting', 'active'] }), { waiting: 3, active: 0 })
  t.same(await countJobsOf(db, 'ingest_capture', { statuses: ['waiting'], dataField: { key: 'client_id', value: 'a' } }), { waiting: 2 })
  t.same(await queueHealthCounts(db), { dead: 0, waiting: 4, active: 0, stuck: 0 })
  await queue.close()
})
