/**
 * A call into the embedded engine that does not return (here `pg_sleep`, which holds PGLite's
 * thread as a loop inside the engine would) ends its process with a report once the limit has
 * passed, even though the event loop never turns; what was committed before opens intact.
 */
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openPglite } from '../../src/db/pglite-driver.js'
import { emptyTemplateDirectory } from '../../src/db/template.js'
import { runScript } from '../helpers/run-script.js'

const DRIVER = fileURLToPath(new URL('../../src/db/pglite-driver.js', import.meta.url))
// New brains start as a copy of the built snapshot, as the CLI's do, instead of running initdb
// (about four seconds of CPU each); without a built snapshot they run it.
const templateDirectory = emptyTemplateDirectory() ?? undefined
const fromTemplate = templateDirectory === undefined ? {} : { templateDirectory }

t.test('a call that never returns ends the process with a report; committed rows survive', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-watchdog-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const dataDir = join(dir, 'db')
  const script = join(dir, 'stuck.mjs')
  writeFileSync(
    script,
    `import { openPglite } from ${JSON.stringify(DRIVER)}
const db = await openPglite({ dataDir: ${JSON.stringify(dataDir)}, callLimitMs: 1000, ...${JSON.stringify(fromTemplate)} })
await db.exec('CREATE TABLE kept (note text)')
await db.query("INSERT INTO kept VALUES ('written before the stall')")
let ticks = 0
setInterval(() => ticks++, 10).unref()
console.log('stalling')
await db.query('SELECT pg_sleep(600)')
console.log('returned after', ticks, 'ticks')
`,
  )
  const result = await runScript(script)
  t.equal(result.signal, 'SIGKILL', 'the watchdog ended the process')
  t.match(result.stdout, /stalling/)
  t.notMatch(result.stdout, /returned after/)
  t.match(result.stderr, /has not returned for \d+ s \(limit 1 s, BRAIN_STATEMENT_TIMEOUT\); stopping this process/)

  const db = await openPglite({ dataDir, callLimitMs: 1000 })
  t.teardown(() => db.close())
  const { rows } = await db.query<{ note: string }>('SELECT note FROM kept')
  t.same(rows, [{ note: 'written before the stall' }])
})

t.test('calls that return in time leave the process alone', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'brain-watchdog-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = await openPglite({ dataDir: join(dir, 'db'), callLimitMs: 1500, ...fromTemplate })
  // Each call is well inside the limit, together they are not: the limit is per call.
  for (let i = 0; i < 4; i++) await db.query('SELECT pg_sleep(0.5)')
  const { rows } = await db.query<{ one: number }>('SELECT 1 AS one')
  t.same(rows, [{ one: 1 }])
  await db.close()
})
