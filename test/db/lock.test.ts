import t, { type Test } from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../src/config/index.js'
import { openDatabase } from '../../src/db/open.js'
import { acquireFileLock } from '../../src/db/lock.js'

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

t.test('a lock file with no readable owner is taken for in use while young, and taken over once old', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'brain-lock-')), 'db.lock')
  // What another opener leaves for an instant between creating the file and writing its owner.
  writeFileSync(path, '')
  t.throws(() => acquireFileLock(path, 'the test brain'), { code: 'brain_locked' }, 'a lock being written is not taken over')
  const minuteAgo = new Date(Date.now() - 60_000)
  utimesSync(path, minuteAgo, minuteAgo)
  const lock = acquireFileLock(path, 'the test brain')
  t.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid, 'an old unreadable lock is a leftover, taken over')
  lock.release()
  t.notOk(existsSync(path), 'released')
})

for (const [method, options] of [
  ['linked into place', {}],
  ['made in place, as without hard links', { hardLinks: false }],
] as const) {
  t.test(`openers racing for a stale lock (${method}): exactly one of them holds it`, (t) => raceForStaleLock(t, options))
}

async function raceForStaleLock(t: Test, options: { hardLinks?: boolean }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'brain-lock-'))
  const path = join(dir, 'db.lock')
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  writeFileSync(path, JSON.stringify({ pid: Number(dead.stdout), command: 'gone', started_at: new Date().toISOString() }))
  const go = join(dir, 'go')
  const lockModule = new URL('../../src/db/lock.js', import.meta.url).href
  // Each opener waits for the same signal, tries once, and holds what it got until told to stop.
  const script = `
    import { existsSync } from 'node:fs'
    const { acquireFileLock } = await import(${JSON.stringify(lockModule)})
    process.stdout.write('ready\\n')
    while (!existsSync(${JSON.stringify(go)})) await new Promise((r) => setTimeout(r, 1))
    let line
    try { acquireFileLock(${JSON.stringify(path)}, 'raced', ${JSON.stringify(options)}); line = 'held' } catch (err) { line = err.code }
    process.stdout.write(line + '\\n')
    process.stdin.on('data', () => {}); process.stdin.on('end', () => process.exit(0))`
  const openers = Array.from({ length: 8 }, () => spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }))
  t.teardown(() => openers.forEach((child) => child.kill()))
  const lines = openers.map((child) => {
    let seen = ''
    const waiters: Array<{ n: number; resolve: (line: string) => void }> = []
    child.stdout.on('data', (d: Buffer) => {
      seen += d.toString()
      const got = seen.split('\n').filter(Boolean)
      for (const w of waiters.filter((w) => got.length >= w.n)) w.resolve(got[w.n - 1]!)
    })
    return (n: number): Promise<string> =>
      new Promise((resolve, reject) => {
        waiters.push({ n, resolve })
        child.once('exit', (code) => reject(new Error(`opener exited ${code}`)))
      })
  })
  // The signal is given once every opener waits for it, so they all try at once.
  await Promise.all(lines.map((line) => line(1)))
  writeFileSync(go, '')
  const results = await Promise.all(lines.map((line) => line(2)))
  t.equal(results.filter((r) => r === 'held').length, 1, `one holder: ${results.join(', ')}`)
  t.ok(
    results.every((r) => r === 'held' || r === 'brain_locked' || r === 'brain_lock_race'),
    'the others are told the brain is in use',
  )
  openers.forEach((child) => child.stdin.end())
}

t.test('without hard links the lock is made in place: a live holder is refused, a dead one taken over', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'brain-lock-')), 'db.lock')
  const inPlace = { hardLinks: false }
  const lock = acquireFileLock(path, 'the test brain', inPlace)
  t.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid, 'the owner is written')
  t.throws(() => acquireFileLock(path, 'the test brain', inPlace), { code: 'brain_already_open' })
  lock.release()
  t.notOk(existsSync(path), 'released')
  const live = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] })
  t.teardown(() => live.kill())
  writeFileSync(path, JSON.stringify({ pid: live.pid, command: 'alive', started_at: new Date().toISOString() }))
  t.throws(() => acquireFileLock(path, 'the test brain', inPlace), { code: 'brain_locked', message: new RegExp(`process ${live.pid}\\b`) }, 'a live holder is named')
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  writeFileSync(path, JSON.stringify({ pid: Number(dead.stdout), command: 'gone', started_at: new Date().toISOString() }))
  const taken = acquireFileLock(path, 'the test brain', inPlace)
  t.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid, 'a dead holder’s lock is taken over')
  t.notOk(existsSync(`${path}.takeover`), 'and the takeover lock is gone again')
  taken.release()
  writeFileSync(path, '')
  t.throws(() => acquireFileLock(path, 'the test brain', inPlace), { code: 'brain_locked' }, 'a young lock without an owner is one being made')
  const minuteAgo = new Date(Date.now() - 60_000)
  utimesSync(path, minuteAgo, minuteAgo)
  acquireFileLock(path, 'the test brain', inPlace).release()
  t.notOk(existsSync(path), 'an old one is a leftover, taken over')
})
