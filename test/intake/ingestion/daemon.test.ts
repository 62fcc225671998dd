// test-runner: shares a process
import t from 'tap'
import { FakeClock, settle } from '../../../src/intake/ingestion/clock.js'
import type { IngestionSource, IngestionSourceContext } from '../../../src/intake/ingestion/contract.js'
import { IngestionDaemon } from '../../../src/intake/ingestion/daemon.js'
import type { IngestionEvent } from '../../../src/intake/ingestion/event.js'
import { throwingEngineProxy } from '../../../src/intake/ingestion/test-harness.js'
import { memoryLogger } from '../../../src/util/logger.js'

function setup(options: { rate?: { capacity: number; intervalMs: number } } = {}) {
  const clock = new FakeClock()
  const dispatched: IngestionEvent[] = []
  const daemon = new IngestionDaemon({
    clock,
    engine: throwingEngineProxy(),
    logger: memoryLogger(),
    rate: options.rate,
    dispatch: async (event) => {
      dispatched.push(event)
      return { jobId: `job-${dispatched.length}` }
    },
  })
  return { clock, daemon, dispatched }
}

const source: IngestionSource = { id: 'test', run: async () => undefined }
const event = (content: string): IngestionEvent => ({ content_type: 'text/plain', content, source_id: 'test' })

t.test('pipeline: an invalid event is refused before dedupe and dispatch', async (t) => {
  const { daemon, dispatched } = setup()
  const outcome = await daemon.handle(source, { content_type: 'text/plain', content: '', source_id: 'test' })
  t.match(outcome, { status: 'invalid', code: 'empty_body' })
  t.equal(dispatched.length, 0)
})

t.test('pipeline: identical content inside 24 h is one dispatch; after the window it is dispatched again', async (t) => {
  const { daemon, dispatched, clock } = setup()
  t.match(await daemon.handle(source, event('a')), { status: 'dispatched', jobId: 'job-1' })
  t.match(await daemon.handle(source, { ...event('a'), source_uri: 'elsewhere' }), { status: 'duplicate' })
  await clock.advance(23 * 3600_000)
  t.match(await daemon.handle(source, event('a')), { status: 'duplicate' }, 'still inside the window')
  await clock.advance(3600_000)
  t.match(await daemon.handle(source, event('a')), { status: 'dispatched' }, 'the window has passed')
  t.equal(dispatched.length, 2)
})

t.test('pipeline: a file edited A → B → A is captured three times; the same content elsewhere stays a duplicate', async (t) => {
  const { daemon, dispatched } = setup()
  const at = (content: string, uri: string): IngestionEvent => ({ ...event(content), source_uri: uri })
  t.match(await daemon.handle(source, at('A', 'file:///n.md')), { status: 'dispatched' })
  t.match(await daemon.handle(source, at('A', 'file:///copy.md')), { status: 'duplicate' })
  t.match(await daemon.handle(source, at('B', 'file:///n.md')), { status: 'dispatched' })
  t.match(await daemon.handle(source, at('A', 'file:///n.md')), { status: 'dispatched' }, 'the revert is captured')
  t.match(await daemon.handle(source, at('A', 'file:///n.md')), { status: 'duplicate' })
  t.same(
    dispatched.map((e) => e.content),
    ['A', 'B', 'A'],
  )
})

t.test('pipeline: rate-limited events are not dispatched and not remembered as seen', async (t) => {
  const { daemon, dispatched, clock } = setup({ rate: { capacity: 2, intervalMs: 1000 } })
  await daemon.handle(source, event('1'))
  await daemon.handle(source, event('2'))
  const refused = await daemon.handle(source, event('3'))
  t.match(refused, { status: 'rate_limited', retryAfterMs: 500 })
  await clock.advance(500)
  t.match(await daemon.handle(source, event('3')), { status: 'dispatched' }, 'the refused event goes through later')
  t.equal(dispatched.length, 3)
})

t.test('a failed dispatch is not remembered, so the event can be sent again', async (t) => {
  let fail = true
  const daemon = new IngestionDaemon({
    clock: new FakeClock(),
    engine: throwingEngineProxy(),
    logger: memoryLogger(),
    dispatch: async () => {
      if (fail) throw new Error('database down')
      return { jobId: 'j' }
    },
  })
  await t.rejects(daemon.handle(source, event('x')), /database down/)
  fail = false
  t.match(await daemon.handle(source, event('x')), { status: 'dispatched' })
})

t.test('a source that throws is restarted with exponential backoff; health shows it', async (t) => {
  const { daemon, clock } = setup()
  let runs = 0
  const flaky: IngestionSource = {
    id: 'flaky',
    run: async (ctx: IngestionSourceContext) => {
      runs++
      if (runs <= 3) throw new Error(`boom ${runs}`)
      await ctx.emit(event('after recovery'))
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()))
    },
  }
  daemon.start(flaky)
  await settle()
  t.equal(runs, 1)
  t.match(daemon.health()[0], { id: 'flaky', state: 'backoff', failures: 1, consecutive_failures: 1, last_error: 'boom 1' })
  await clock.advance(999)
  t.equal(runs, 1, 'first backoff is 1 s')
  await clock.advance(1)
  t.equal(runs, 2)
  await clock.advance(1999)
  t.equal(runs, 2, 'second backoff is 2 s')
  await clock.advance(1)
  t.equal(runs, 3)
  await clock.advance(4000)
  t.equal(runs, 4, 'third backoff is 4 s')
  t.match(daemon.health()[0], { state: 'running', failures: 3, dispatched: 1, emitted: 1 })
  await daemon.stop()
  t.equal(daemon.health()[0]!.state, 'stopped')
})

t.test('a warning from a source shows on its health line', async (t) => {
  const { daemon } = setup()
  daemon.start({ id: 'w', run: async (ctx) => ctx.warn('inbox is world-writable') })
  await settle()
  t.equal(daemon.health()[0]!.last_warning, 'inbox is world-writable')
  await daemon.stop()
})
