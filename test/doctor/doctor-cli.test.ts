/**
 * `brain doctor` through the real binary: a fresh brain on both engines, and a server engine
 * whose cluster has been stopped.
 */
import t from 'tap'
import { cliBrain, runBrain, servedCliMode } from '../helpers/cli.js'
import { startPgCluster } from '../helpers/pg-cluster.js'

interface Report {
  status: string
  checks: { name: string; status: string; message: string }[]
}

for (const engine of ['pglite', 'postgres'] as const) {
  t.test(`a healthy fresh brain reports all ok [${engine}]`, async (t) => {
    const brain = await cliBrain(engine, { mode: servedCliMode() })
    t.teardown(() => brain.cleanup())
    t.equal((await brain.run(['init', '--json'])).code, 0)
    const res = await brain.run(['doctor', '--json'])
    t.equal(res.code, 0, res.stderr)
    const report = res.json<Report>()
    t.same(
      report.checks.filter((c) => c.status !== 'ok'),
      [],
      'no check warns or fails',
    )
    t.equal(report.status, 'ok')
    t.ok(report.checks.length >= 8)
    const human = await brain.run(['doctor', '--no-json'])
    t.match(human.stdout, /ok +database +/)
    t.match(human.stdout, /brain doctor: ok\n$/)
  })
}

t.test('with the server cluster stopped: the database failure, clearly, no stack trace, no retries', async (t) => {
  const cluster = await startPgCluster()
  t.teardown(() => cluster.stop())
  const brain = await cliBrain('pglite', { mode: servedCliMode() })
  t.teardown(() => brain.cleanup())
  const env = { ...brain.env, BRAIN_DATABASE_URL: cluster.adminUrl }
  t.equal((await runBrain(['init', '--json'], env)).code, 0)
  t.equal((await runBrain(['doctor', '--json'], env)).code, 0, 'healthy while the cluster runs')

  cluster.pause()
  const res = await runBrain(['doctor', '--json'], env)
  t.equal(res.code, 1, 'a failing check: exit 1')
  const report = res.json<Report>()
  t.equal(report.status, 'fail')
  const database = report.checks.find((c) => c.name === 'database')!
  t.equal(database.status, 'fail')
  // In-process the connect fails; inside the resident service its open pool stops answering.
  t.match(
    database.message,
    /^postgres: Could not connect to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres.*ECONNREFUSED|^postgres at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres does not answer: .*ECONNREFUSED/,
  )
  t.same(
    report.checks.filter((c) => c.status === 'fail').map((c) => c.name),
    ['database'],
    'one failure, the database; the rest were not checked',
  )
  t.notMatch(res.stdout + res.stderr, /\n\s+at .+\(.*:\d+:\d+\)/, 'no stack trace')
  t.notMatch(res.stderr, /retry/, 'doctor does not retry the connection')

  const human = await runBrain(['doctor', '--no-json'], env)
  t.equal(human.code, 1)
  t.match(human.stdout, /FAIL +database +postgres(:| at )/)
  t.notMatch(human.stdout + human.stderr, /\n\s+at .+:\d+:\d+/)
  cluster.resume()
})
