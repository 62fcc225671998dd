// test-runner: shares a process
import t from 'tap'
import { UsageError } from '../../src/errors/index.js'
import { JobCancelledError, WorkerShutdownError } from '../../src/queue/errors.js'
import { startJob, type RunJobInput, type Timers } from '../../src/queue/run-job.js'
import type { JobHandler } from '../../src/queue/handler.js'
import type { Database } from '../../src/db/types.js'
import { honoursAbort, ignoresAbort, testConfig, testLogger } from './helpers.js'

/** Timers that fire only when the test says so. */
function manualTimers(): Timers & { fire(ms: number): void; pending(): number[] } {
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let next = 1
  return {
    setTimeout(fn, ms) {
      timers.set(next, { fn, ms })
      return next++
    },
    clearTimeout(handle) {
      timers.delete(handle as number)
    },
    fire(ms) {
      for (const [id, timer] of [...timers]) {
        if (timer.ms === ms) {
          timers.delete(id)
          timer.fn()
        }
      }
    },
    pending: () => [...timers.values()].map((x) => x.ms),
  }
}

function input(handler: JobHandler, timers: Timers, extra: Partial<RunJobInput> = {}): RunJobInput {
  return {
    jobId: 'j1',
    name: 'shell',
    data: { x: 1 },
    handler,
    db: {} as Database,
    config: testConfig(),
    logger: testLogger(),
    timeoutMs: 1000,
    evictAfterMs: 30_000,
    timers,
    ...extra,
  }
}

t.test('a handler that resolves completes with its result, made JSON', async (t) => {
  const timers = manualTimers()
  const progress: unknown[] = []
  const running = startJob(
    input(
      async (ctx) => {
        ctx.progress({ done: 1, total: 2 })
        return { at: new Date(0), data: ctx.data, skip: undefined }
      },
      timers,
      { onProgress: (p) => progress.push(p) },
    ),
  )
  t.same(await running.outcome, { kind: 'completed', result: { at: '1970-01-01T00:00:00.000Z', data: { x: 1 } } })
  t.same(progress, [{ done: 1, total: 2 }], 'progress reaches the listener')
  t.same(timers.pending(), [], 'no timer is left behind')
})

t.test('a handler that rejects fails with the serialized error', async (t) => {
  const running = startJob(
    input(async () => {
      throw new UsageError('bad_thing', 'Bad thing.', { hint: 'Do the other thing.' })
    }, manualTimers()),
  )
  t.same(await running.outcome, {
    kind: 'failed',
    requeue: false,
    error: { class: 'UsageError', code: 'bad_thing', hint: 'Do the other thing.', message: 'Bad thing.' },
  })
})

t.test('the timeout fires the abort signal; a handler that stops fails with job_timeout', async (t) => {
  const timers = manualTimers()
  let sawSignal = false
  const running = startJob(
    input((ctx) => {
      ctx.signal.addEventListener('abort', () => (sawSignal = true))
      return honoursAbort(ctx)
    }, timers),
  )
  t.same(timers.pending().sort(), [1000], 'only the timeout is armed')
  await new Promise((r) => setImmediate(r))
  timers.fire(1000)
  const outcome = await running.outcome
  t.ok(sawSignal, 'the handler saw the abort')
  t.match(outcome, { kind: 'failed', requeue: false, error: { class: 'JobTimeout', code: 'job_timeout' } })
})

t.test('a handler that ignores its abort is evicted after the eviction delay', async (t) => {
  const timers = manualTimers()
  const running = startJob(input(ignoresAbort, timers))
  await new Promise((r) => setImmediate(r))
  let settled = false
  void running.outcome.then(() => (settled = true))
  timers.fire(1000)
  await new Promise((r) => setImmediate(r))
  t.notOk(settled, 'not settled right after the abort')
  t.same(timers.pending(), [30_000], 'the eviction clock runs')
  timers.fire(30_000)
  t.match(await running.outcome, { kind: 'evicted', error: { class: 'JobEvicted', code: 'job_evicted' } })
})

t.test('a handler that settles after its abort but within the grace keeps its result', async (t) => {
  const timers = manualTimers()
  const running = startJob(input((ctx) => new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('finished anyway'))), timers))
  await new Promise((r) => setImmediate(r))
  timers.fire(1000)
  t.same(await running.outcome, { kind: 'completed', result: 'finished anyway' })
})

t.test('aborts from outside carry their reason; worker shutdowns requeue', async (t) => {
  const cases: Array<[Error, unknown]> = [
    [new JobCancelledError('job_cancelled', 'cancelled'), { kind: 'failed', requeue: false, error: { class: 'JobCancelled' } }],
    [new WorkerShutdownError('worker_shutdown', 'bye'), { kind: 'failed', requeue: 'release', error: { class: 'WorkerShutdown' } }],
    [new WorkerShutdownError('worker_shutdown', 'bye', { penalize: true }), { kind: 'failed', requeue: 'stall' }],
  ]
  for (const [reason, expected] of cases) {
    const running = startJob(input(honoursAbort, manualTimers()))
    await new Promise((r) => setImmediate(r))
    running.abort(reason)
    t.match(await running.outcome, expected, reason.message)
  }
})

t.test('a result that cannot be stored as JSON fails the job', async (t) => {
  const running = startJob(input(async () => ({ n: 10n }), manualTimers()))
  t.match(await running.outcome, { kind: 'failed', requeue: false, error: { code: 'internal_error' } })
})

t.test('a job aborted before its handler starts never runs it', async (t) => {
  let ran = false
  const running = startJob(
    input(async () => {
      ran = true
    }, manualTimers()),
  )
  running.abort(new WorkerShutdownError('worker_shutdown', 'bye'))
  t.match(await running.outcome, { kind: 'failed', requeue: 'release' })
  t.notOk(ran)
})

t.test('a handler that throws synchronously fails the job instead of crashing', async (t) => {
  const running = startJob(
    input(() => {
      throw new Error('boom')
    }, manualTimers()),
  )
  t.match(await running.outcome, { kind: 'failed', error: { message: 'boom' } })
})
