// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import { GenerationReader } from '../../src/search/result-cache.js'

/** A database whose generation reads stay pending until the test settles them, in order. */
function fakeDatabase(): { db: Database; pending: Array<{ resolve: (generation: string) => void; reject: (err: Error) => void }> } {
  const pending: Array<{ resolve: (generation: string) => void; reject: (err: Error) => void }> = []
  const db = {
    query: () =>
      new Promise((resolve, reject) => {
        pending.push({ resolve: (generation: string) => resolve({ rows: [{ generation }], rowCount: 1 }), reject })
      }),
  } as unknown as Database
  return { db, pending }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

t.test('a caller arriving during a read waits for a read that began after it asked', async (t) => {
  const { db, pending } = fakeDatabase()
  const reader = new GenerationReader(db)
  const first = reader.read()
  const second = reader.read()
  const third = reader.read()
  t.equal(pending.length, 1, 'one read under way')
  pending[0]!.resolve('1')
  t.equal(await first, '1')
  await tick()
  t.equal(pending.length, 2, 'the callers who queued share one new read')
  pending[1]!.resolve('2')
  t.equal(await second, '2', 'not the read that was already under way when it asked')
  t.equal(await third, '2')
})

t.test('a failed read fails its callers and the queued ones still get a fresh read', async (t) => {
  const { db, pending } = fakeDatabase()
  const reader = new GenerationReader(db)
  const first = reader.read()
  const second = reader.read()
  pending[0]!.reject(new Error('connection lost'))
  await t.rejects(first, /connection lost/)
  await tick()
  pending[1]!.resolve('7')
  t.equal(await second, '7')
  const later = reader.read()
  await tick()
  t.equal(pending.length, 3, 'a caller after everything settled starts its own read')
  pending[2]!.resolve('8')
  t.equal(await later, '8')
})
