import t from 'tap'
import { JobSignals, type JobEvent } from '../../src/queue/signals.js'
import { engineTest } from '../helpers/engines.js'
import { eventually } from './helpers.js'

engineTest(t, 'signals reach subscribers; a lost LISTEN connection is noticed and re-established', async (t, { db }) => {
  const signals = new JobSignals(db)
  const seen: JobEvent[] = []
  const unsubscribe = await signals.subscribe((e) => seen.push(e))
  await signals.publish({ e: 'new', name: 'sync' })
  await eventually(async () => (seen.length === 1 ? true : undefined), 'the first event')
  t.same(seen, [{ e: 'new', name: 'sync' }])
  t.equal(signals.crossProcess, db.capabilities.multiProcess)
  if (db.capabilities.multiProcess) {
    t.ok(await signals.checkListening(), 'healthy')
    await eventually(async () => ((await signals.checkListening()) ? true : undefined), 'the ping to come back')
    await db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`)
    await new Promise((r) => setTimeout(r, 100))
    await signals.checkListening()
    await new Promise((r) => setTimeout(r, 100))
    t.notOk(await signals.checkListening(), 'the ping sent after the loss never came back')
    await signals.publish({ e: 'new', name: 'embed' })
    await eventually(async () => (seen.some((e) => e.e === 'new' && e.name === 'embed') ? true : undefined), 'events after re-listening')
    t.notOk(seen.some((e) => e.e === 'ping'), 'pings are not delivered to subscribers')
  }
  await unsubscribe()
})
