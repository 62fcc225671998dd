/** What the embedded engine's holder keeps of the calls it ran: nothing, once they settled. */
import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { PGlite } from '@electric-sql/pglite'
import { ReplaceablePglite } from '../../src/db/pglite-instance.js'

// A full collection on demand, so that what is still referenced can be told from what is not.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

t.test('the result of a settled call is not kept by the engine holder', async (t) => {
  const engine = { query: async (text: string) => ({ rows: [{ text, payload: 'x'.repeat(1000) + text }] }), close: async () => undefined }
  const instance = new ReplaceablePglite(engine as unknown as PGlite, { reopen: async () => engine as unknown as PGlite, beforeReopen: () => undefined })
  t.teardown(() => instance.close())
  const results: Array<WeakRef<object>> = []
  for (let i = 0; i < 200; i++) {
    results.push(new WeakRef(await instance.run((g) => g.pg.query(`SELECT ${i}`))))
    // A statement inside a transaction settles through the generation it runs on.
    results.push(new WeakRef(await instance.run((g) => g.settle(g.pg.query(`SELECT ${i} in a transaction`)))))
  }
  await new Promise((resolve) => setImmediate(resolve))
  collect()
  const kept = results.filter((r) => r.deref() !== undefined).length
  t.ok(kept <= 2, `${kept} of ${results.length} results still reachable after a collection`)
})
