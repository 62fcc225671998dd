import t from 'tap'
import { FreeSpaceGuard, mayWrite } from '../../src/db/free-space.js'
import { asDiskError } from '../../src/db/pg-driver.js'
import { parseSizeBytes } from '../../src/config/sizes.js'
import { cliBrain } from '../helpers/cli.js'

const MiB = 1024 * 1024

t.test('which statements count as writes', async (t) => {
  for (const read of ['SELECT 1', '  select * from pages', 'SHOW server_version', 'EXPLAIN SELECT 1', 'VALUES (1)', 'WITH x AS (SELECT 1) SELECT * FROM x', '-- note\nSELECT 1'])
    t.notOk(mayWrite(read), `${read} reads`)
  for (const write of [
    'INSERT INTO pages VALUES (1)',
    'update pages set x = 1',
    'DELETE FROM pages',
    'WITH gone AS (DELETE FROM pages RETURNING id) SELECT * FROM gone',
    'CREATE TABLE x (a int)',
    'BEGIN',
  ])
    t.ok(mayWrite(write), `${write} may write`)
})

t.test('sizes of the reserve', async (t) => {
  t.equal(parseSizeBytes('R', undefined, 7), 7)
  t.equal(parseSizeBytes('R', '32', 0), 32 * MiB, 'a bare number is MiB')
  t.equal(parseSizeBytes('R', '512KiB', 0), 512 * 1024)
  t.equal(parseSizeBytes('R', '1GiB', 0), 1024 * MiB)
  t.equal(parseSizeBytes('R', 'off', 5), 0)
  t.throws(() => parseSizeBytes('R', 'lots', 0), { code: 'invalid_size' })
})

t.test('the guard refuses below the reserve and lets writes through once space is back', async (t) => {
  let free = 10 * MiB
  const guard = new FreeSpaceGuard({ dir: '/nowhere', reserveBytes: 32 * MiB, read: () => free })
  t.throws(() => guard.check(), { errorClass: 'DiskError', code: 'disk_full', message: /10\.0 MiB free.*32\.0 MiB/ })
  free = 100 * MiB
  t.doesNotThrow(() => guard.check(), 'a low reading is never reused')
})

t.test("PostgreSQL's disk_full is a DiskError", async (t) => {
  const pgError = Object.assign(new Error('could not extend file: No space left on device'), { code: '53100', severity: 'ERROR' })
  t.match(asDiskError(pgError), { errorClass: 'DiskError', code: 'disk_full' })
  const other = Object.assign(new Error('syntax'), { code: '42601', severity: 'ERROR' })
  t.equal(asDiskError(other), other)
})

t.test('a full disk refuses writes at once, reads go on, and writes resume when space is back', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'in-process' })
  t.teardown(() => brain.cleanup())
  const stored = await brain.run(['put', 'notes/kept', '--no-embed'], { input: '# Kept\n\nThe heron note.' })
  t.equal(stored.code, 0, stored.stderr)
  // A reserve larger than any disk: the filesystem is "full" for the brain.
  const full = { BRAIN_DISK_RESERVE: '1000000GiB' }
  const refused = await brain.run(['put', 'notes/new', '--no-embed', '--json'], { input: '# New', env: full })
  t.equal(refused.code, 1)
  t.match(refused.json(), { error: { class: 'DiskError', code: 'disk_full', message: /free/ } })
  t.notMatch(refused.stderr, /\n\s+at /, 'no stack trace')
  const listed = await brain.run(['list', '--json'], { env: full })
  t.same(
    listed.json<Array<{ slug: string }>>().map((p) => p.slug),
    ['notes/kept'],
  )
  const searched = await brain.run(['search', 'heron', '--json'], { env: full })
  t.equal(searched.code, 0, searched.stdout)
  t.match(searched.json(), { results: [{ slug: 'notes/kept' }] })
  const got = await brain.run(['get', 'notes/kept'], { env: full })
  t.match(got.stdout, /The heron note\./)
  const resumed = await brain.run(['put', 'notes/new', '--no-embed', '--json'], { input: '# New' })
  t.match(resumed.json(), { status: 'created' })
  t.match((await brain.run(['get', 'notes/kept'])).stdout, /The heron note\./)
})
