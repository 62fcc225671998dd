// test-runner: shares a process
/**
 * The reusable pipeline pieces: token buckets, the streamed body cap, client IP resolution.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { clientIp, readBodyCapped, TokenBucketLru, type BodyResult } from '../../src/http/index.js'

t.test('a bucket allows its burst, then refills over time', async (t) => {
  let now = 0
  const buckets = new TokenBucketLru({ capacity: 2, refillPerSecond: 1, maxKeys: 100, now: () => now })
  t.same(buckets.take('a'), { allowed: true })
  t.same(buckets.take('a'), { allowed: true })
  t.same(buckets.take('a'), { allowed: false, retryAfterSeconds: 1 })
  t.same(buckets.take('b'), { allowed: true }, 'keys are independent')
  now = 1000
  t.same(buckets.take('a'), { allowed: true }, 'one token back after a second')
})

t.test('the LRU is bounded and idle keys are pruned', async (t) => {
  let now = 0
  const buckets = new TokenBucketLru({ capacity: 1, refillPerSecond: 1, maxKeys: 3, now: () => now })
  for (const key of ['a', 'b', 'c', 'd']) buckets.take(key)
  t.equal(buckets.size, 3)
  t.same(buckets.take('a'), { allowed: true }, 'the least recently used key was dropped (and starts full)')
  now = 5000
  buckets.prune()
  t.equal(buckets.size, 0, 'full buckets carry no state')
})

async function bodyServer(t: Test, max: number): Promise<{ port: number; results: BodyResult[] }> {
  const results: BodyResult[] = []
  const server = createServer(async (req, res) => {
    const result = await readBodyCapped(req, max)
    results.push(result)
    res.end(result.ok ? 'ok' : result.reason)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => new Promise<void>((r) => server.close(() => r())))
  return { port: (server.address() as AddressInfo).port, results }
}

function send(port: number, chunks: string[], headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', headers }, (res) => {
      let text = ''
      res.on('data', (d: Buffer) => (text += d.toString()))
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    for (const c of chunks) req.write(c)
    req.end()
  })
}

t.test('the body cap counts streamed bytes, with or without Content-Length', async (t) => {
  const { port } = await bodyServer(t, 10)
  t.equal(await send(port, ['12345', '678']), 'ok')
  t.equal(await send(port, ['123456', '789012']), 'too_large', 'chunked over the cap')
  t.equal(await send(port, ['12345678901'], { 'Content-Length': '11' }), 'too_large', 'declared over the cap')
})

t.test('X-Forwarded-For is believed only behind a trusted proxy', async (t) => {
  const req = { headers: { 'x-forwarded-for': '203.0.113.5, 10.0.0.1' }, socket: { remoteAddress: '::ffff:127.0.0.1' } } as unknown as Parameters<typeof clientIp>[0]
  t.equal(clientIp(req, true), '203.0.113.5')
  t.equal(clientIp(req, false), '127.0.0.1')
})
