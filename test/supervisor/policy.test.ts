// test-runner: shares a process
import t from 'tap'
import { memorySink } from '../../supervisor/events.js'
import { EXIT_MEMORY_LIMIT, likelyCause } from '../../supervisor/exit-cause.js'
import { HealthMonitor } from '../../supervisor/health.js'
import { RestartPolicy } from '../../supervisor/restart-policy.js'

t.test('the likely cause of a worker exit', async (t) => {
  t.equal(likelyCause(null, 'SIGKILL'), 'oom_or_external_kill')
  t.equal(likelyCause(137, null), 'oom_or_external_kill', 'a shell reports SIGKILL as 137')
  t.equal(likelyCause(null, 'SIGTERM'), 'graceful_shutdown')
  t.equal(likelyCause(143, null), 'graceful_shutdown')
  t.equal(likelyCause(1, null), 'runtime_error')
  t.equal(likelyCause(EXIT_MEMORY_LIMIT, null), 'memory_limit')
  t.equal(likelyCause(0, null), 'clean_exit')
  t.equal(likelyCause(2, null), 'unknown')
})

t.test('restarts back off exponentially and give up after five consecutive crashes', async (t) => {
  const policy = new RestartPolicy({ baseDelayMs: 1000, maxDelayMs: 10_000 })
  const decisions = [1, 2, 3, 4, 5].map(() => policy.recordExit(1000))
  t.same(
    decisions.map((d) => d.delayMs),
    [1000, 2000, 4000, 8000, 10_000],
  )
  t.same(
    decisions.map((d) => d.giveUp),
    [false, false, false, false, true],
  )
  t.equal(decisions[4]!.crashes, 5)
})

t.test('five minutes of stable uptime resets the crash count', async (t) => {
  const policy = new RestartPolicy()
  for (let i = 0; i < 4; i++) policy.recordExit(10_000)
  t.equal(policy.consecutiveCrashes, 4)
  const afterStable = policy.recordExit(5 * 60_000)
  t.same(afterStable, { crashes: 1, giveUp: false, delayMs: 1000 }, 'the exit after a stable run counts as the first')
  t.equal(policy.recordExit(299_999).crashes, 2, 'just under five minutes is not stable')
})

t.test('three consecutive failed checks: health_warn, then a reconnect; success resets the count', async (t) => {
  const sink = memorySink()
  let up = true
  let reconnects = 0
  const monitor = new HealthMonitor({
    events: sink,
    probe: async () => {
      if (!up) throw new Error('connection refused')
    },
    reconnect: async () => {
      reconnects++
      if (!up) throw new Error('still down')
    },
  })
  t.match(await monitor.runOnce(), { ok: true, consecutiveFailures: 0 })
  up = false
  t.match(await monitor.runOnce(), { ok: false, consecutiveFailures: 1, warned: false })
  t.match(await monitor.runOnce(), { ok: false, consecutiveFailures: 2, warned: false })
  t.same(sink.events, [], 'no warning before the third failure')
  t.match(await monitor.runOnce(), { ok: false, consecutiveFailures: 3, warned: true })
  t.match(sink.events, [
    { event: 'health_warn', reason: 'db_connection_degraded', consecutive_failures: 3, error: 'connection refused' },
    { event: 'health_reconnect', ok: false },
  ])
  t.equal(reconnects, 1)
  up = true
  t.match(await monitor.runOnce(), { ok: true, consecutiveFailures: 0 })
  t.match(sink.events.at(-1), { event: 'health_recovered', after_failures: 3 })
  up = false
  await monitor.runOnce()
  await monitor.runOnce()
  t.equal(sink.events.filter((e) => e.event === 'health_warn').length, 1, 'the count restarted from zero')
})

t.test('a probe that hangs counts as a failure', async (t) => {
  const monitor = new HealthMonitor({ events: memorySink(), probeTimeoutMs: 20, probe: () => new Promise(() => undefined), reconnect: async () => undefined })
  t.match(await monitor.runOnce(), { ok: false, consecutiveFailures: 1 })
})
