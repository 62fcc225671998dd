import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, closeSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadConfig } from '../../../src/config/index.js'
import { openDatabase } from '../../../src/db/open.js'
import { computeContentHash } from '../../../src/intake/ingestion/event.js'
import { ENGINES } from '../../helpers/engines.js'
import { BRAIN_BIN, cliBrain, suiteEnv } from '../../helpers/cli.js'

const FILES = 50

function startDaemon(env: Record<string, string>, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a')
  try {
    return spawn(process.execPath, [BRAIN_BIN, 'ingest', 'daemon', '--no-watch', '--worker'], { env: { PATH: process.env.PATH ?? '', ...suiteEnv(), ...env }, stdio: ['ignore', fd, fd] })
  } finally {
    closeSync(fd)
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))
}

async function until(check: () => Promise<boolean>, what: string, log: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; daemon log:\n${await readFile(log, 'utf8').catch(() => '')}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const inboxFiles = async (inbox: string): Promise<string[]> => (await readdir(inbox)).filter((n) => !n.startsWith('.'))
async function archived(inbox: string): Promise<string[]> {
  const root = join(inbox, '.archived')
  const days = await readdir(root).catch(() => [])
  return (await Promise.all(days.map((d) => readdir(join(root, d))))).flat()
}

for (const engine of ENGINES) {
  t.test(`SIGKILL while the inbox holds ${FILES} files: after a restart each file is exactly one page [${engine}]`, async (t) => {
    const brain = await cliBrain(engine)
    t.teardown(brain.cleanup)
    const home = brain.env.BRAIN_HOME!
    const inbox = join(home, 'inbox')
    await mkdir(inbox, { recursive: true, mode: 0o700 })
    const contents = new Map<string, string>()
    for (let i = 0; i < FILES; i++) {
      const content = `# Crash note ${i}\n\n${'Body text of a note that survives a crash. '.repeat(20)}${i}\n`
      contents.set(`note-${String(i).padStart(3, '0')}.md`, content)
      await writeFile(join(inbox, `note-${String(i).padStart(3, '0')}.md`), content)
    }
    const log = join(home, 'daemon-test.log')
    const first = startDaemon(brain.env, log)
    t.teardown(() => void (first.exitCode === null && first.kill('SIGKILL')))
    await until(async () => (await archived(inbox)).length >= 10, 'the first files to be archived', log)
    process.kill(first.pid!, 'SIGKILL')
    await exited(first)
    const movedBeforeKill = (await archived(inbox)).length
    t.ok(movedBeforeKill < FILES, `killed mid-run (${movedBeforeKill} of ${FILES} archived)`)

    const second = startDaemon(brain.env, log)
    t.teardown(() => void (second.exitCode === null && second.kill('SIGKILL')))
    const healthFile = join(home, 'ingest', 'health.json')
    await until(async () => (await inboxFiles(inbox)).length === 0, 'the inbox to empty', log)
    // Every job is submitted once the inbox is empty; counts read after that moment are final.
    const emptiedAt = Date.now()
    await until(
      async () => {
        const health = JSON.parse(await readFile(healthFile, 'utf8').catch(() => '{}')) as { pid?: number; ingest_capture_jobs?: { waiting: number; active: number; checked_at: string } | null }
        const jobs = health.ingest_capture_jobs
        return health.pid === second.pid && jobs != null && Date.parse(jobs.checked_at) > emptiedAt && jobs.waiting === 0 && jobs.active === 0
      },
      'the jobs to finish',
      log,
    )
    process.kill(second.pid!, 'SIGTERM')
    await exited(second)

    const moved = await archived(inbox)
    t.equal(moved.length, FILES, 'every file was archived once')
    t.same(moved.sort(), [...contents.keys()].sort(), 'under its own name: no file archived twice')
    const db = await openDatabase(loadConfig({ env: brain.env }).engine)
    t.teardown(() => db.close())
    const { rows } = await db.query<{ slug: string; source_uri: string }>("SELECT slug, source_uri FROM pages WHERE source_kind = 'inbox' ORDER BY slug")
    t.equal(rows.length, FILES, 'one page per file')
    const expected = [...contents.values()].map((c) => computeContentHash({ content: c }).slice(0, 6))
    const slugHashes = new Set(rows.map((r) => r.slug.slice(-6)))
    t.equal(slugHashes.size, FILES, 'no page twice')
    t.ok(
      expected.every((h) => slugHashes.has(h)),
      'no file lost',
    )
    const jobs = await db.query<{ status: string; n: number }>("SELECT status, count(*)::integer AS n FROM minion_jobs WHERE name = 'ingest_capture' GROUP BY status")
    t.same(
      jobs.rows.map((r) => [r.status, Number(r.n)]),
      [['completed', FILES]],
      'one completed job per file',
    )
  })
}
