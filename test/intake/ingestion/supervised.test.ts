import t from 'tap'
import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BRAIN_BIN, cliBrain, runBrain, suiteEnv } from '../../helpers/cli.js'

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

t.test('brain ingest supervisor keeps the daemon running and reports its exits', async (t) => {
  const brain = await cliBrain('pglite')
  t.teardown(brain.cleanup)
  const home = brain.env.BRAIN_HOME!
  await mkdir(join(home, 'inbox'), { recursive: true, mode: 0o700 })
  await writeFile(join(home, 'inbox', 'first.md'), '# First\n\nunder supervision\n')
  const log = openSync(join(home, 'supervisor.log'), 'a')
  const child = spawn(process.execPath, [BRAIN_BIN, 'ingest', 'supervisor', '--no-watch'], { env: { PATH: process.env.PATH ?? '', ...suiteEnv(), ...brain.env }, stdio: ['ignore', log, log] })
  closeSync(log)
  t.teardown(() => void (child.exitCode === null && child.kill('SIGKILL')))
  const eventsFile = join(home, 'ingest', 'supervisor-events.jsonl')
  const events = async (): Promise<Array<Record<string, unknown>>> =>
    (await readFile(eventsFile, 'utf8').catch(() => ''))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  await until(async () => (await readdir(join(home, 'inbox'))).every((n) => n.startsWith('.')), 'the inbox file to be archived')
  const started = (await events()).find((e) => e.event === 'worker_started')
  t.ok(started, 'the daemon was started by the supervisor')
  const daemonPid = Number(started!.pid)
  process.kill(daemonPid, 'SIGKILL')
  await until(async () => (await events()).some((e) => e.event === 'worker_exited' && e.likely_cause === 'oom_or_external_kill'), 'the kill to be reported')
  await until(async () => (await events()).filter((e) => e.event === 'worker_started').length === 2, 'the daemon to be restarted')
  await writeFile(join(home, 'inbox', 'second.md'), '# Second\n\nafter the restart\n')
  await until(async () => (await readdir(join(home, 'inbox'))).every((n) => n.startsWith('.')), 'the second file to be archived')
  const archivedAt = Date.now()
  await until(async () => {
    const health = JSON.parse(await readFile(join(home, 'ingest', 'health.json'), 'utf8').catch(() => '{}')) as { ingest_capture_jobs?: { waiting: number; active: number; checked_at: string } | null }
    const jobs = health.ingest_capture_jobs
    return jobs != null && Date.parse(jobs.checked_at) > archivedAt && jobs.waiting === 0 && jobs.active === 0
  }, 'the restarted daemon to finish both jobs')
  child.kill('SIGTERM')
  await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())))
  t.equal(child.exitCode, 0)
  const last = (await events()).filter((e) => e.event === 'worker_exited').pop()
  t.equal(last?.likely_cause, 'graceful_shutdown', 'a stop is a graceful shutdown of the daemon')
  const status = await brain.run(['ingest', 'status', '--json'])
  t.equal(status.code, 0, status.stderr)
  t.match(
    status.json(),
    { sources: [{ id: 'inbox', state: 'stopped', dispatched: 1 }], ingest_capture_jobs: { waiting: 0, active: 0 } },
    'the restarted daemon captured the second file and ran every job',
  )
  const none = await runBrain(['ingest', 'status', '--json'], { ...brain.env, BRAIN_HOME: join(home, 'elsewhere') })
  t.equal(none.code, 1)
  t.match(none.json(), { error: { code: 'ingest_daemon_not_running' } })
})
