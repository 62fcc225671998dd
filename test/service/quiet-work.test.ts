/** Start-up work a service leaves for a moment without commands, and the bound on its wait. */
import t from 'tap'
import { QuietWork } from '../../src/service/quiet-work.js'

/** A service whose commands and clock the test moves by hand. */
function fakeService(): { quietForMs: () => number; busy: (value: boolean) => void; advance: (ms: number) => void; now: () => number } {
  let clock = 1_000_000
  let inFlight = true
  let idleSince = clock
  return {
    quietForMs: () => (inFlight ? 0 : clock - idleSince),
    busy: (value) => {
      inFlight = value
      idleSince = clock
    },
    advance: (ms) => void (clock += ms),
    now: () => clock,
  }
}

function until(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => void (condition() ? resolve() : setTimeout(check, 2))
    check()
  })
}

const timings = { quietMs: 250, latestMs: 5000, checkMs: 1 }

t.test('work waits while a command is in flight and starts once none has been for a moment', async (t) => {
  const service = fakeService()
  const ran: string[] = []
  const work = new QuietWork({ quietForMs: service.quietForMs, onError: (err) => t.fail(String(err)), timings, now: service.now })
  t.teardown(() => work.stop())
  work.add(async () => void ran.push('worker'))
  await new Promise((r) => setTimeout(r, 30))
  t.same(ran, [], 'nothing runs beside the command')
  service.busy(false)
  service.advance(100)
  await new Promise((r) => setTimeout(r, 30))
  t.same(ran, [], 'nor right after it ends, when the next command may be on its way')
  service.advance(150)
  await until(() => ran.length === 1)
  t.same(ran, ['worker'], 'it runs once the service has been quiet long enough')
})

t.test('a service that stays busy runs the work after the longest wait', async (t) => {
  const service = fakeService()
  const ran: string[] = []
  const work = new QuietWork({ quietForMs: service.quietForMs, onError: (err) => t.fail(String(err)), timings, now: service.now })
  t.teardown(() => work.stop())
  work.add(async () => void ran.push('worker'))
  work.add(async () => void ran.push('model'))
  service.advance(4999)
  await new Promise((r) => setTimeout(r, 30))
  t.same(ran, [], 'not before its bound')
  service.advance(1)
  await until(() => ran.length === 2)
  t.same(ran, ['worker', 'model'], 'then every piece that waited as long, in the order added')
})

t.test('pieces run one at a time, and a failing one does not stop the rest', async (t) => {
  const service = fakeService()
  service.busy(false)
  service.advance(1000)
  const events: string[] = []
  const errors: string[] = []
  const work = new QuietWork({ quietForMs: service.quietForMs, onError: (err) => errors.push(String(err)), timings, now: service.now })
  t.teardown(() => work.stop())
  let finishFirst!: () => void
  work.add(async () => {
    events.push('first starts')
    await new Promise<void>((resolve) => (finishFirst = resolve))
    events.push('first ends')
  })
  work.add(async () => {
    events.push('second starts')
    throw new Error('the model is missing')
  })
  work.add(async () => void events.push('third starts'))
  await until(() => events.length === 1)
  await new Promise((r) => setTimeout(r, 20))
  t.same(events, ['first starts'], 'the next piece waits for the one running')
  finishFirst()
  await until(() => events.length === 4)
  t.same(events, ['first starts', 'first ends', 'second starts', 'third starts'])
  t.same(errors, ['Error: the model is missing'], 'the failure is reported')
})

t.test('stopping drops the work not started and waits for the piece running', async (t) => {
  const service = fakeService()
  const ran: string[] = []
  const work = new QuietWork({ quietForMs: service.quietForMs, onError: (err) => t.fail(String(err)), timings, now: service.now })
  work.add(async () => void ran.push('worker'))
  await work.stop()
  service.busy(false)
  service.advance(10_000)
  work.add(async () => void ran.push('added after the stop'))
  await new Promise((r) => setTimeout(r, 30))
  t.same(ran, [], 'nothing runs after the stop')

  const second = new QuietWork({ quietForMs: service.quietForMs, onError: (err) => t.fail(String(err)), timings, now: service.now })
  let finish!: () => void
  let ended = false
  second.add(async () => {
    await new Promise<void>((resolve) => (finish = resolve))
    ended = true
  })
  second.add(async () => void ran.push('never'))
  await until(() => finish !== undefined)
  const stopped = second.stop()
  let stopSettled = false
  void stopped.then(() => (stopSettled = true))
  await new Promise((r) => setTimeout(r, 20))
  t.notOk(stopSettled, 'the stop waits for the piece under way')
  finish()
  await stopped
  t.ok(ended, 'which ends')
  t.same(ran, [], 'and the next one never starts')
})
