// test-runner: shares a process
import t from 'tap'
import { isTransientConnectError, RETRY_DELAYS_MS, withConnectRetry } from '../../src/db/connect-retry.js'

function coded(code: string): Error {
  return Object.assign(new Error('x'), { code })
}

t.test('transient classes are retried, others are not', async (t) => {
  for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P03', '28P01', '28000']) t.ok(isTransientConnectError(coded(code)), code)
  t.ok(isTransientConnectError(new Error('Connection terminated unexpectedly')), 'connection terminated (no code)')
  for (const code of ['3D000', '42P01', 'ENOTFOUND', '53300']) t.notOk(isTransientConnectError(coded(code)), code)
  t.notOk(isTransientConnectError(new TypeError('bad')), 'programming errors are not transient')
})

t.test('three retries at 1 s, 2 s, 4 s, then the error surfaces', async (t) => {
  const waits: number[] = []
  let calls = 0
  await t.rejects(
    withConnectRetry(
      async () => {
        calls++
        throw coded('ECONNREFUSED')
      },
      {
        retry: true,
        sleep: async (ms) => {
          waits.push(ms)
        },
      },
    ),
    { code: 'ECONNREFUSED' },
  )
  t.same(waits, [...RETRY_DELAYS_MS], 'delays 1000, 2000, 4000')
  t.same(waits, [1000, 2000, 4000])
  t.equal(calls, 4, 'one attempt plus three retries')
})

t.test('a connection that comes back is used', async (t) => {
  let calls = 0
  const value = await withConnectRetry(
    async () => {
      if (++calls < 3) throw coded('57P03')
      return 'ok'
    },
    { retry: true, sleep: async () => undefined },
  )
  t.equal(value, 'ok')
  t.equal(calls, 3)
})

t.test('retry off and non-transient errors fail at once', async (t) => {
  let calls = 0
  await t.rejects(
    withConnectRetry(
      async () => {
        calls++
        throw coded('ECONNREFUSED')
      },
      { retry: false, sleep: async () => undefined },
    ),
  )
  t.equal(calls, 1, '--no-retry-connect: one attempt')
  calls = 0
  await t.rejects(
    withConnectRetry(
      async () => {
        calls++
        throw coded('3D000')
      },
      { retry: true, sleep: async () => undefined },
    ),
  )
  t.equal(calls, 1, 'database does not exist: one attempt')
})
