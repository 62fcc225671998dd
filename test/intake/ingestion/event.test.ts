// test-runner: shares a process
import t from 'tap'
import { eventToMarkdown } from '../../../src/intake/ingestion/to-markdown.js'
import { classifyContentType, computeContentHash, INGESTION_SOURCE_API_VERSION, validateIngestionEvent } from '../../../src/intake/ingestion/index.js'
import { DedupeWindow } from '../../../src/intake/ingestion/dedupe.js'
import { FakeClock } from '../../../src/intake/ingestion/clock.js'
import { KeyedRateLimiter } from '../../../src/intake/ingestion/rate-limit.js'
import { ValidationError } from '../../../src/errors/index.js'

t.test('validateIngestionEvent returns a clean copy of a valid event', async (t) => {
  const event = validateIngestionEvent({ content_type: 'text/plain', content: 'hi', source_id: 'x', source_uri: 'file:///a', metadata: { slug: 'a/b' }, extra: 1 })
  t.same(event, { content_type: 'text/plain', content: 'hi', source_id: 'x', source_uri: 'file:///a', metadata: { slug: 'a/b' } })
  t.equal(INGESTION_SOURCE_API_VERSION, 1)
})

t.test('validateIngestionEvent names the field that is wrong', async (t) => {
  const cases: Array<[unknown, string, RegExp]> = [
    [null, 'invalid_ingestion_event', /\(event\)/],
    [[], 'invalid_ingestion_event', /\(event\)/],
    [{ content: 'x', source_id: 's' }, 'invalid_ingestion_event', /content_type/],
    [{ content_type: 'text/plain', content: 3, source_id: 's' }, 'invalid_ingestion_event', /content /],
    [{ content_type: 'text/plain', content: '', source_id: 's' }, 'empty_body', /no content/],
    [{ content_type: 'text/plain', content: 'x' }, 'invalid_ingestion_event', /source_id/],
    [{ content_type: 'text/plain', content: 'x', source_id: 's', received_at: 'yesterday' }, 'invalid_ingestion_event', /received_at/],
    [{ content_type: 'text/plain', content: 'x', source_id: 's', metadata: 'm' }, 'invalid_ingestion_event', /metadata/],
    [{ content_type: 'text/plain', content: 'x', source_id: 's', metadata: { slug: 4 } }, 'invalid_ingestion_event', /metadata\.slug/],
    [{ content_type: 'text/plain', content: 'x', source_id: 's', source_uri: 9 }, 'invalid_ingestion_event', /source_uri/],
  ]
  for (const [value, code, message] of cases) {
    let caught: unknown = null
    try {
      validateIngestionEvent(value)
    } catch (err) {
      caught = err
    }
    t.ok(caught instanceof ValidationError, `${JSON.stringify(value)} throws a ValidationError`)
    t.match(caught, { code, message }, `${JSON.stringify(value)} → ${code}`)
  }
})

t.test('computeContentHash is the sha256 of the content only', async (t) => {
  const a = computeContentHash({ content: 'same' })
  t.match(a, /^[0-9a-f]{64}$/)
  t.equal(a, computeContentHash({ content: 'same' }))
  t.not(a, computeContentHash({ content: 'other' }))
  t.equal(a, '0967115f2813a3541eaef77de9d9d5773f1c0c04314b0bbfe4ff3b3b1c55b5d5')
})

t.test('content types: four text types, unknown text/* as text/plain, everything else binary', async (t) => {
  t.same(classifyContentType('text/markdown; charset=utf-8'), { kind: 'text', type: 'text/markdown' })
  t.same(classifyContentType('Application/JSON'), { kind: 'text', type: 'application/json' })
  t.same(classifyContentType('text/csv'), { kind: 'text', type: 'text/plain' })
  t.same(classifyContentType('image/png'), { kind: 'binary', type: 'image/png' })
  t.same(classifyContentType('application/pdf'), { kind: 'binary', type: 'application/pdf' })
})

t.test('the dedupe window forgets after 24 h', async (t) => {
  const clock = new FakeClock()
  const window = new DedupeWindow(clock)
  window.remember('h1')
  await clock.advance(24 * 3600_000 - 1)
  t.ok(window.has('h1'), 'still inside the window')
  await clock.advance(1)
  t.notOk(window.has('h1'), 'gone at 24 h')
})

t.test('the dedupe window keeps at most 5000 entries, dropping the oldest', async (t) => {
  const clock = new FakeClock()
  const window = new DedupeWindow(clock)
  for (let i = 0; i < 5001; i++) window.remember(`h${i}`)
  t.equal(window.size, 5000)
  t.notOk(window.has('h0'), 'the oldest was dropped')
  t.ok(window.has('h1'))
  t.ok(window.has('h5000'))
})

t.test('the rate limiter allows 100 per 10 s per key and says when to retry', async (t) => {
  const clock = new FakeClock()
  const limiter = new KeyedRateLimiter(clock, 100, 10_000)
  for (let i = 0; i < 100; i++) t.ok(limiter.take('a').allowed || t.fail(`event ${i} refused`))
  const refused = limiter.take('a')
  t.equal(refused.allowed, false)
  t.equal(refused.retryAfterMs, 100, 'one token refills in 100 ms')
  t.ok(limiter.take('b').allowed, 'other keys have their own bucket')
  await clock.advance(100)
  t.ok(limiter.take('a').allowed)
})

t.test('HTML text: a page of unclosed tags or long blank runs costs its length', async (t) => {
  // Each `<`, each unclosed `<script` and each blank was read to the end of the page: the square
  // of it, about an hour for these.
  const html = (body: string) => eventToMarkdown('text/html', body, 'test', new Date(0)).split('\n').at(-2)
  t.equal(html(`<p>a</p><script>x()</script>b${'<'.repeat(1_000_000)}`), `b${'<'.repeat(1_000_000)}`)
  t.equal(html(`<style>p {}</style>c ${'<script'.repeat(300_000)}`), `c ${'<script'.repeat(300_000)}`)
  t.equal(html(`<b>d</b>${' '.repeat(1_000_000)}e\t \n`), `d${' '.repeat(1_000_000)}e`)
  t.equal(html('<HEAD><title>t</title></head ><SCRIPT>a</script><p>f</p>'), 'f', 'a closing tag of any case')
})
