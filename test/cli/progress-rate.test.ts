// test-runner: shares a process
import t from 'tap'
import { formatDuration, RateMeter, rateSuffix } from '../../src/cli/progress-rate.js'

t.test('rate and time left follow the samples and restart with a new phase', async (t) => {
  let now = 0
  const meter = new RateMeter(10_000, () => now)
  t.equal(meter.sample(0, 1000, 'chunks'), undefined, 'one sample gives no rate')
  now = 2_000
  t.same(meter.sample(100, 1000, 'chunks'), { perSecond: 50, etaSeconds: 18 })
  now = 4_000
  t.same(meter.sample(300, 1000, 'chunks'), { perSecond: 75, etaSeconds: 700 / 75 })
  now = 5_000
  t.equal(meter.sample(10, 200, 'files'), undefined, 'a new phase starts a new measurement')
  now = 6_000
  t.same(meter.sample(30, 200, 'files'), { perSecond: 20, etaSeconds: 8.5 })
})

t.test('the window drops old samples so the rate follows the current speed', async (t) => {
  let now = 0
  const meter = new RateMeter(5_000, () => now)
  meter.sample(0, undefined, 'chunks')
  now = 1_000
  meter.sample(10, undefined, 'chunks')
  now = 20_000
  meter.sample(1_010, undefined, 'chunks')
  now = 21_000
  const rate = meter.sample(1_110, undefined, 'chunks')
  t.same(rate, { perSecond: 100, etaSeconds: undefined })
})

t.test('formats the suffix shown on the progress line', async (t) => {
  let now = 0
  const meter = new RateMeter(10_000, () => now)
  t.equal(rateSuffix(meter, 0, 5000, 'chunks'), '')
  now = 10_000
  t.equal(rateSuffix(meter, 340, 5000, 'chunks'), ' · 34 chunks/s · ETA 2m17s')
  t.equal(formatDuration(7), '7s')
  t.equal(formatDuration(3_725), '1h02m')
})
