/**
 * The supervisor and a real worker against a private PostgreSQL cluster that goes away and
 * comes back.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { openPostgres } from '../../src/db/pg-driver.js'
import { openQueue } from '../../src/queue/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { backgroundThreadPoolSize } from '../../src/util/background-threads.js'
import { startPgCluster } from '../helpers/pg-cluster.js'
import { processRef, stillRunning, type ProcessRef } from '../helpers/processes.js'
import { eventually, testConfig, testLogger } from '../queue/helpers.js'
import { spawnScript } from '../queue/processes.js'

const BRAIN = join(packageRoot(), 'bin', 'brain.js')

function pgOptions(url: string) {
  return { url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }
}

t.test('health_warn when the database goes away; the worker recovers when it returns', async (t) => {
  const cluster = await startPgCluster()
  t.teardown(() => cluster.stop())
  const home = mkdtempSync(join(tmpdir(), 'brain-sup-'))
  const supervisor = spawnScript(BRAIN, ['jobs', 'supervisor', '--health-interval', '200ms', '--autopilot-cron', 'off', '--events-file', join(home, 'events.jsonl')], {
    BRAIN_HOME: home,
    BRAIN_DATABASE_URL: cluster.adminUrl,
    BRAIN_ALLOW_SHELL_JOBS: '1',
  })
  let worker: ProcessRef | null = null
  t.teardown(async () => {
    supervisor.child.kill('SIGKILL')
    // Known by its start time too: by now its pid may be another process's.
    if (worker !== null && stillRunning(worker)) process.kill(worker.pid, 'SIGKILL')
    await supervisor.exited
  })
  const started = JSON.parse(await supervisor.line(/"event":"worker_started"/, 30_000)) as { pid: number }
  const workerPid = started.pid
  worker = processRef(workerPid)
  const argv = readFileSync(`/proc/${workerPid}/cmdline`, 'utf8').split('\0')
  t.ok(argv.includes(`--v8-pool-size=${backgroundThreadPoolSize(availableParallelism())}`), `the worker keeps a core for its main thread: ${argv.join(' ')}`)
  // A job completed before the outage shows the worker fully started (a failure while it
  // starts is a plain crash, which the restart tests cover).
  const before = await openPostgres(pgOptions(cluster.adminUrl))
  const beforeQueue = await openQueue({ db: before, config: testConfig(), logger: testLogger() })
  const first = await beforeQueue.submit('shell', { cmd: 'echo $PPID' })
  await eventually(async () => ((await beforeQueue.get(first.id))?.status === 'completed' ? true : undefined), 'a job before the outage', 30_000)
  await before.close()

  cluster.pause()
  const warn = JSON.parse(await supervisor.line(/"event":"health_warn"/, 15_000)) as Record<string, unknown>
  t.match(warn, { reason: 'db_connection_degraded', consecutive_failures: 3 })
  cluster.resume()
  await supervisor.line(/"event":"health_recovered"/, 30_000)

  const db = await openPostgres(pgOptions(cluster.adminUrl))
  t.teardown(() => db.close())
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger() })
  const job = await queue.submit('shell', { cmd: 'echo $PPID' })
  const done = await eventually(
    async () => {
      const current = await queue.get(job.id)
      return current?.status === 'completed' ? current : undefined
    },
    'the worker to run a job after the outage',
    45_000,
  )
  t.equal((done.result as { stdout: string }).stdout.trim(), String(workerPid), 'the supervised worker ran it')
  t.notOk(
    supervisor.lines.some((l) => l.includes('"worker_exited"')),
    'the worker rode out the outage without exiting',
  )

  supervisor.child.kill('SIGTERM')
  t.match(await supervisor.exited, { code: 0 })
  const exited = supervisor.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e.event === 'worker_exited')
  t.match(exited, { pid: workerPid, likely_cause: 'graceful_shutdown' })
})
