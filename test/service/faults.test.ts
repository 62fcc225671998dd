import t from 'tap'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cliBrain, servicePid, spawnBrain, spawnBrains, type CliBrain } from '../helpers/cli.js'
import { stopChild } from '../helpers/processes.js'

function notes(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-service-notes-'))
  for (let i = 0; i < count; i++) {
    const dir = join(root, `group-${i % 10}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `note-${i}.md`), `# Note ${i}\n\nThe quick brown fox number ${i} jumps over lazy dog ${i % 7}.\n`)
  }
  return root
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function pageCount(brain: CliBrain): Promise<number> {
  const listed = await brain.run(['list', '--limit', '100000'])
  return listed.json<unknown[]>().length
}

interface Job {
  id: string
  name: string
  status: string
  attempts: number
  result?: { files: number; created: number; updated: number; skipped: number; failed: unknown[] }
}

t.test('SIGKILL of the service mid-import: the next command restarts it and the job completes once', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  // Enough files that the import is still running after a few polls, each a whole command, on a
  // fast machine: 2,000 once finished before the first poll saw it active.
  const FILES = 8000
  const root = notes(FILES)
  const importer = spawnBrain(['import', root, '--no-embed'], brain.env)
  t.teardown(() => stopChild(importer))
  const importerExit = new Promise<number | null>((resolve) => importer.once('exit', (code) => resolve(code)))
  let active: Job | undefined
  await until('an active import with files done', async () => {
    const jobs = await brain.run(['jobs', 'list', '--name', 'import'])
    active = jobs.code === 0 ? jobs.json<Job[]>().find((j) => j.status === 'active') : undefined
    if (!active) return false
    const progress = (await brain.run(['jobs', 'get', active.id])).json<{ progress?: { done: number } }>().progress
    return (progress?.done ?? 0) >= 10
  })
  const killed = servicePid(brain.home)!
  process.kill(killed, 'SIGKILL')
  t.equal(await importerExit, 1, 'the waiting client reports the lost service')

  // The next command starts a new service, which returns the orphaned job to the queue.
  let job: Job | undefined
  await until(
    'the import to complete',
    async () => {
      const got = await brain.run(['jobs', 'get', active!.id])
      job = got.code === 0 ? got.json<Job>() : undefined
      return job?.status === 'completed' || job?.status === 'dead'
    },
    600_000,
  )
  t.not(servicePid(brain.home), killed, 'a new service runs')
  t.equal(job!.status, 'completed')
  t.equal(job!.result!.files, FILES)
  t.equal(job!.result!.failed.length, 0)
  t.equal(job!.result!.created + job!.result!.updated + job!.result!.skipped, FILES, 'the re-run accounts for every file, committed ones as unchanged')
  const jobs = await brain.run(['jobs', 'list', '--name', 'import'])
  t.same(
    jobs.json<Job[]>().map((j) => [j.id, j.status]),
    [[active!.id, 'completed']],
    'one import job, completed once',
  )
  t.equal(await pageCount(brain), FILES, 'every page exactly once')
})

t.test('one embedded brain serves an import, 50 searches and long-lived clients at once', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  const FILES = 300
  const root = notes(FILES)
  t.equal((await brain.run(['put', 'notes/seed', '--no-embed'], { input: '# Seed\n\nquick brown fox\n' })).code, 0)

  const longLived = spawnBrains(3, ['jobs', 'work'], brain.env)
  const stderrs = longLived.map((child) => {
    const text = { value: '' }
    child.stderr.on('data', (d: Buffer) => (text.value += d.toString()))
    return text
  })
  t.teardown(() => Promise.all(longLived.map((c) => stopChild(c))))
  await until('three attached clients', () => stderrs.every((s) => s.value.includes('attached until interrupted')), 60_000)

  const importing = brain.run(['import', root, '--no-embed'])
  const searches = Array.from({ length: 50 }, (_, i) => brain.run(['search', 'quick', 'fox', `${i % 7}`, '--limit', '5']))
  const [imported, ...found] = await Promise.all([importing, ...searches])
  t.equal(imported.code, 0, imported.stderr)
  t.equal(imported.json<{ created: number }>().created, FILES)
  t.same(
    found.map((r) => r.code),
    Array(50).fill(0),
    'every search succeeded',
  )
  t.notOk(
    found.some((r) => /brain_locked/.test(r.stdout + r.stderr)),
    'nobody was locked out',
  )
  t.ok(found.every((r) => Array.isArray(r.json<{ results: unknown[] }>().results)))
  t.equal(await pageCount(brain), FILES + 1, 'page count exact')
  const status = await brain.run(['service', 'status'])
  t.equal(status.json<{ clients: number }>().clients, 3, 'the long-lived clients are still attached')
  for (const child of longLived) child.kill('SIGINT')
  const codes = await Promise.all(longLived.map((c) => new Promise<number | null>((resolve) => (c.exitCode !== null ? resolve(c.exitCode) : c.once('exit', (code) => resolve(code))))))
  t.same(codes, [130, 130, 130])
})
