/**
 * A disk filled between the free-space check and the write (another program wrote in between)
 * leaves PostgreSQL inside PGLite unable to write its WAL. PGLite then either spins, or answers
 * that call with 53100 and never settles another, or answers every later statement with an error
 * ("cannot drop active portal"). None of these may hold the brain: the
 * process either sets the engine aside at once (the next call says disk_full) or its watchdog
 * ends it within seconds, far short of the statement limit; opening on the full disk says
 * disk_full, and once space is freed every committed row is there. Needs root for a small tmpfs.
 */
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import { openPglite } from '../../src/db/pglite-driver.js'
import { ReplaceablePglite } from '../../src/db/pglite-instance.js'
import { emptyTemplateDirectory } from '../../src/db/template.js'
import { DiskError } from '../../src/errors/index.js'
import { runScript } from '../helpers/run-script.js'
import { freeBytes } from '../helpers/small-disk.js'

const MiB = 1024 * 1024
const DRIVER = fileURLToPath(new URL('../../src/db/pglite-driver.js', import.meta.url))
// The brain starts as a copy of the built snapshot, as the CLI's do, instead of running initdb.
const templateDirectory = emptyTemplateDirectory() ?? undefined
const fromTemplate = templateDirectory === undefined ? {} : { templateDirectory }

t.test('a write that meets a full disk does not hold the brain; freed space brings it back whole', { skip: process.getuid?.() !== 0 ? 'needs root to mount a tmpfs' : false }, async (t) => {
  const disk = mkdtempSync(join(tmpdir(), 'brain-mid-write-'))
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', disk]).status !== 0) return void t.plan(0, 'a tmpfs cannot be mounted here')
  t.teardown(() => {
    spawnSync('umount', ['-l', disk])
    rmSync(disk, { recursive: true, force: true })
  })
  const dataDir = join(disk, 'db')
  const filler = join(disk, 'filler.bin')
  const script = join(tmpdir(), `brain-mid-write-${process.pid}.mjs`)
  t.teardown(() => rmSync(script, { force: true }))
  // The statement limit is ten minutes, so only the full-disk rule can end a stall in time.
  // The free-space check is made blind while the disk fills, as if another program filled it
  // between the check and the write.
  writeFileSync(
    script,
    `import { statfsSync, writeFileSync } from 'node:fs'
import { openPglite } from ${JSON.stringify(DRIVER)}
const free = () => { const s = statfsSync(${JSON.stringify(disk)}); return Number(s.bavail) * Number(s.bsize) }
let blind = false
const db = await openPglite({ dataDir: ${JSON.stringify(dataDir)}, ...${JSON.stringify(fromTemplate)}, callLimitMs: 600000, freeSpace: { dir: ${JSON.stringify(disk)}, reserveBytes: ${32 * MiB}, read: () => (blind ? Infinity : free()) } })
await db.exec('CREATE TABLE kept (note text)')
await db.query("INSERT INTO kept VALUES ('committed before the disk filled')")
await db.listen('kept_changed', () => undefined)
writeFileSync(${JSON.stringify(filler)}, Buffer.alloc(Math.max(0, free() - ${MiB})))
blind = true
console.log('filled')
let failure = null
for (let i = 0; i < 8 && failure === null; i++) {
  try {
    await db.query("INSERT INTO kept VALUES ('late')")
    await db.query('SELECT pg_switch_wal()')
  } catch (err) {
    failure = err
  }
}
blind = false
console.log('failed with', failure?.code)
try {
  await db.query('SELECT count(*) FROM kept')
  console.log('next call answered')
} catch (err) {
  console.log('next call', err.code)
}
await db.close()
console.log('closed')
`,
  )
  const started = Date.now()
  const child = await runScript(script)
  const seconds = (Date.now() - started) / 1000
  t.match(child.stdout, /filled/)
  if (child.signal === 'SIGKILL') {
    t.match(child.stderr, /has not returned for \d+ s \(the disk is full, which the database engine cannot get past\); stopping this process/, 'the watchdog named the full disk')
    t.ok(seconds < 300, `the stall ended long before the statement limit (${seconds.toFixed(0)} s)`)
  } else {
    t.equal(child.code, 0, child.stderr)
    t.match(child.stdout, /failed with 53100\nnext call disk_full\nclosed/, 'the failing call said 53100, the next one disk_full, and close returned')
  }

  // In a process of its own: PGLite's runtime, once its start failed, spins when the event loop
  // drains, so a command must end with process.exit (as the CLI and the service do).
  const opener = join(tmpdir(), `brain-mid-write-open-${process.pid}.mjs`)
  t.teardown(() => rmSync(opener, { force: true }))
  writeFileSync(
    opener,
    `import { openPglite } from ${JSON.stringify(DRIVER)}
try {
  await openPglite({ dataDir: ${JSON.stringify(dataDir)}, freeSpace: { dir: ${JSON.stringify(disk)}, reserveBytes: ${32 * MiB} } })
  console.log('opened')
} catch (err) {
  console.log(JSON.stringify({ errorClass: err.errorClass, code: err.code, message: err.message }))
}
process.exit(0)
`,
  )
  const reopened = await runScript(opener)
  t.equal(reopened.code, 0, reopened.stderr)
  t.match(
    JSON.parse(reopened.stdout) as unknown,
    { errorClass: 'DiskError', code: 'disk_full', message: /needs 32\.0 MiB free to open/ },
    'opening on the full disk says the disk is full, not that the brain is damaged',
  )

  rmSync(filler)
  t.ok(freeBytes(disk) > 32 * MiB)
  const db = await openPglite({ dataDir, freeSpace: { dir: disk, reserveBytes: 32 * MiB } })
  t.teardown(() => db.close())
  const { rows } = await db.query<{ note: string }>("SELECT note FROM kept WHERE note <> 'late'")
  t.same(rows, [{ note: 'committed before the disk filled' }], 'every committed row is there')
  await db.query("INSERT INTO kept VALUES ('after')")
  t.equal((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM kept WHERE note = 'after'")).rows[0]?.n, 1, 'and the brain writes again')
})

t.test('an engine that stops answering after a full disk is set aside and replaced', async (t) => {
  // PGLite's behaviour after a failed WAL write, played by a stand-in: one call fails with
  // SQLSTATE 53100, after which nothing it is asked ever settles.
  const calls: string[] = []
  const wedged = {
    query: async (sql: string) => {
      calls.push(`old: ${sql}`)
      if (sql.startsWith('INSERT')) throw Object.assign(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'), { code: '53100', severity: 'ERROR' })
      return new Promise(() => undefined)
    },
    listen: async () => async () => undefined,
    close: () => new Promise(() => undefined),
  }
  const heard: string[] = []
  const fresh = {
    query: async (sql: string) => (calls.push(`new: ${sql}`), { rows: [{ answer: 1 }] }),
    listen: async (channel: string) => (heard.push(channel), async () => undefined),
    close: async () => void calls.push('new: close'),
  }
  let room = false
  const instance = new ReplaceablePglite(wedged as unknown as PGlite, {
    reopen: async () => fresh as unknown as PGlite,
    beforeReopen: () => {
      if (!room) throw new DiskError('disk_full', 'no room to open')
    },
  })
  await instance.listen('pages_changed', () => undefined)
  const waiting = instance.run((g) => g.pg.query('SELECT slow'))
  await t.rejects(
    instance.run((g) => g.pg.query('INSERT x')),
    { code: '53100' },
    'the failing call reports the full disk',
  )
  await t.rejects(waiting, { errorClass: 'DiskError', code: 'disk_full' }, 'a call that was waiting on the stuck engine is released')
  await t.rejects(
    instance.run((g) => g.pg.query('SELECT 2')),
    { code: 'disk_full', message: 'no room to open' },
    'without room, the next call says so at once',
  )
  room = true
  t.same((await instance.run((g) => g.pg.query('SELECT 3'))) as unknown, { rows: [{ answer: 1 }] }, 'with room, a fresh engine answers')
  t.same(heard, ['pages_changed'], 'listeners are subscribed again on the fresh engine')
  await instance.close()
  t.notOk(
    calls.some((c) => c.startsWith('old: SELECT 3') || c.startsWith('old: SELECT 2')),
    'the stuck engine is never asked again',
  )
  t.ok(calls.includes('new: close'))
})

/**
 * A stand-in engine whose first INSERT meets a full disk, after which it refuses every statement
 * with `code` until `state.refusing` is cleared.
 */
function refusingAfterFullDisk(code: string, message: string) {
  const sqlError = (text: string, sqlState: string) => Object.assign(new Error(text), { code: sqlState, severity: 'ERROR' })
  const state = { refusing: false }
  const engine = {
    query: async (sql: string) => {
      if (state.refusing) throw sqlError(message, code)
      if (sql.startsWith('INSERT')) {
        state.refusing = true
        throw sqlError('could not write to log file: No space left on device', '53100')
      }
      return { rows: [{ answer: 0 }] }
    },
    listen: async () => async () => undefined,
    close: async () => undefined,
  }
  return { engine: engine as unknown as PGlite, state }
}

t.test('an engine that refuses every statement after a full disk is set aside; one that refuses as an aborted transaction is kept', async (t) => {
  const fresh = { query: async () => ({ rows: [{ answer: 1 }] }), listen: async () => async () => undefined, close: async () => undefined }
  // PGLite after a WAL write that failed part-way: the call says 53100, and every later statement
  // fails at once with 24000 "cannot drop active portal".
  const broken = refusingAfterFullDisk('24000', 'cannot drop active portal ""')
  const instance = new ReplaceablePglite(broken.engine, { reopen: async () => fresh as unknown as PGlite, beforeReopen: () => undefined })
  await t.rejects(
    instance.run((g) => g.pg.query('INSERT x')),
    { code: '53100' },
  )
  t.same((await instance.run((g) => g.pg.query('SELECT 2'))) as unknown, { rows: [{ answer: 1 }] }, 'the next call is answered by a fresh engine')
  await instance.close()

  // An engine inside a transaction the full disk aborted refuses the probe with 25P02: it works.
  const inTransaction = refusingAfterFullDisk('25P02', 'current transaction is aborted')
  let reopened = false
  const kept = new ReplaceablePglite(inTransaction.engine, {
    reopen: async () => ((reopened = true), fresh as unknown as PGlite),
    beforeReopen: () => undefined,
  })
  await t.rejects(
    kept.run((g) => g.pg.query('INSERT x')),
    { code: '53100' },
  )
  inTransaction.state.refusing = false
  t.same((await kept.run((g) => g.pg.query('SELECT 2'))) as unknown, { rows: [{ answer: 0 }] }, 'the same engine answers the next call')
  t.notOk(reopened, 'and no fresh engine was opened')
  await kept.close()
})
