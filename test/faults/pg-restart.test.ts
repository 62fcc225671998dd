/**
 * PostgreSQL restarted while a job runs: the worker (`brain jobs work`) and a command waiting for
 * the job (`jobs submit --wait`) each lose their connections at once. The waiter must end within
 * seconds of the server's return, with the job's result or a clear error (never a stack trace,
 * never a wait without end), the job must reach an end state, and the same worker must run the
 * next job. A private cluster, since the suite's shared one serves other files meanwhile.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { openPostgres } from '../../src/db/pg-driver.js'
import { openQueue } from '../../src/queue/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { runBrain } from '../helpers/cli.js'
import { startPgCluster } from '../helpers/pg-cluster.js'
import { eventually, testConfig, testLogger } from '../queue/helpers.js'
import { spawnScript } from '../queue/processes.js'

const BRAIN = join(packageRoot(), 'bin', 'brain.js')
/** What the issue allows between the fault and an answer, with room for a busy machine. */
const ANSWER_WITHIN_MS = 60_000

t.test('PostgreSQL restarted during a job: its waiter and the job both end, and the worker goes on', async (t) => {
  const cluster = await startPgCluster()
  t.teardown(() => cluster.stop())
  const home = mkdtempSync(join(tmpdir(), 'brain-pg-restart-'))
  const env = { BRAIN_HOME: home, BRAIN_DATABASE_URL: cluster.adminUrl, BRAIN_ALLOW_SHELL_JOBS: '1', BRAIN_NO_SERVICE: '1' }
  const init = await runBrain(['init', '--json'], env)
  t.equal(init.code, 0, init.stderr)

  const worker = spawnScript(BRAIN, ['jobs', 'work', '--concurrency', '1'], env)
  t.teardown(async () => {
    worker.child.kill('SIGKILL')
    await worker.exited
  })
  const db = await openPostgres({ url: cluster.adminUrl, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: true })
  t.teardown(() => db.close())
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger() })
  await eventually(
    async () => ((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM minion_workers WHERE kind <> 'inline'`)).rows[0]!.n > 0 ? true : undefined),
    'the worker to register',
    30_000,
  )

  const waiter = runBrain(['jobs', 'submit', 'shell', '--data', JSON.stringify({ cmd: 'sleep 3; echo finished' }), '--wait', '--json'], env)
  const running = await eventually(async () => (await queue.list({ name: 'shell' })).find((j) => j.status === 'active'), 'the job to start', 30_000)
  cluster.restart()
  const back = Date.now()

  const answered = await waiter
  const waited = Date.now() - back
  t.ok(waited < ANSWER_WITHIN_MS, `the waiter answered ${waited} ms after the server came back`)
  t.notMatch(answered.stderr, /\n\s+at .+:\d+:\d+/, 'no stack trace')
  if (answered.code === 0) {
    t.match(answered.json(), { status: 'completed', result: { stdout: /finished/ } }, 'the waiter got the result')
  } else {
    t.match(answered.json(), { error: { code: /^[a-z_]+$/, message: /\S/ } }, `a clear error: ${answered.stdout.trim()}`)
  }
  const ended = await eventually(
    async () => {
      const job = await queue.get(running.id)
      return job && ['completed', 'failed', 'dead', 'cancelled'].includes(job.status) ? job : undefined
    },
    'the job to reach an end state',
    ANSWER_WITHIN_MS,
  )
  t.ok(ended, `the job ended ${ended.status}`)

  const next = await queue.submit('shell', { cmd: 'echo after' })
  const done = await eventually(
    async () => {
      const job = await queue.get(next.id)
      return job?.status === 'completed' ? job : undefined
    },
    'the worker to run a job after the restart',
    ANSWER_WITHIN_MS,
  )
  t.match(done.result, { stdout: /after/ }, 'the same worker runs the next job')
  t.equal(worker.child.exitCode, null, 'the worker rode out the restart')
})
