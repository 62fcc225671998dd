import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../src/config/index.js'
import { openDatabase } from '../../src/db/open.js'

const holder = fileURLToPath(new URL('../fixtures/hold-brain.js', import.meta.url))

t.test('a second process opening the embedded brain fails cleanly, naming the holder; nothing is lost', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-lock-'))
  const env = { ...process.env, BRAIN_HOME: home }
  const first = spawn(process.execPath, [holder], { env, stdio: ['pipe', 'pipe', 'inherit'] })
  await new Promise<void>((resolve, reject) => {
    first.stdout.once('data', (d: Buffer) => (d.toString().includes('ready') ? resolve() : reject(new Error(d.toString()))))
    first.once('exit', (code) => reject(new Error(`holder exited ${code}`)))
  })
  const second = spawnSync(process.execPath, [holder], { env, encoding: 'utf8', input: '' })
  t.equal(second.status, 1, 'second opener exits 1')
  const envelope = JSON.parse(second.stdout) as { class: string; code: string; message: string }
  t.equal(envelope.class, 'LockError')
  t.equal(envelope.code, 'brain_locked')
  t.match(envelope.message, new RegExp(`process ${first.pid}\\b`), 'names the pid holding the brain')
  first.stdin.end()
  await new Promise((resolve) => first.once('exit', resolve))
  const db = await openDatabase(loadConfig({ env: { BRAIN_HOME: home } }).engine)
  t.teardown(() => db.close())
  const { rows } = await db.query<{ key: string }>(`SELECT key FROM config WHERE key LIKE 'holder.%'`)
  t.same(
    rows.map((r) => r.key),
    [`holder.${first.pid}`],
    "the first process's write survived and the brain opens after it exits",
  )
})

t.test('a lock left by a dead process is taken over', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-lock-'))
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  writeFileSync(join(home, 'db.lock'), JSON.stringify({ pid: Number(dead.stdout), command: 'gone', started_at: new Date().toISOString() }))
  const db = await openDatabase(loadConfig({ env: { BRAIN_HOME: home } }).engine)
  t.teardown(() => db.close())
  const { rows } = await db.query<{ one: number }>('SELECT 1 AS one')
  t.equal(rows[0]!.one, 1)
})
