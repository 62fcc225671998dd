/**
 * The operator's read commands, on a thin client of a real `brain serve --http` (server engine)
 * and locally: `brain jobs events [--follow]`, `brain requests` and `brain health`, each a call of
 * its operation.
 */
import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { BRAIN_BIN, childEnv, runBrain } from '../helpers/cli.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, startServe, waitFor } from './helpers.js'

const event = (ts: string, name: string, fields: Record<string, unknown> = {}) => `${JSON.stringify({ ts, event: name, ...fields })}\n`

t.test('supervisor events, the request log and health reach a thin client with an admin token', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const eventsFile = join(server.home, 'supervisor-events.jsonl')
  appendFileSync(eventsFile, event('2026-01-01T00:00:00.000Z', 'worker_started', { pid: 4242 }) + event('2026-01-01T00:00:05.000Z', 'worker_exited', { likely_cause: 'oom_or_external_kill' }))

  const home = mkdtempSync(join(tmpdir(), 'brain-thin-operate-'))
  const env = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '1' }
  const brain = (args: string[]) => runBrain(args, env)
  t.equal((await brain(['init', '--remote', server.base, '--token', await makeToken(created.url, 'thin-ops', ['read', 'admin']), '--json'])).code, 0)

  const listed = await brain(['jobs', 'events', '--json'])
  t.equal(listed.code, 0, listed.stderr)
  t.match(
    listed.json(),
    {
      events: [
        { supervisor: 'jobs', event: 'worker_started', pid: 4242 },
        { supervisor: 'jobs', event: 'worker_exited', likely_cause: 'oom_or_external_kill' },
      ],
    },
    "the server's events, oldest first, keys as written",
  )
  const text = await brain(['jobs', 'events', '--limit', '1', '--no-json'])
  t.equal(text.stdout, '2026-01-01T00:00:05.000Z  jobs    worker_exited  likely_cause=oom_or_external_kill\n', 'one line an event, with its details')
  const badLimit = await brain(['jobs', 'events', '--limit', 'many', '--json'])
  t.match(badLimit, { code: 1 })
  t.match(badLimit.json(), { error: { class: 'UsageError', code: 'jobs_events_invalid_limit' } })

  // --follow polls the same operation: an event written later is printed as a line of its own.
  const follower = spawn(process.execPath, [BRAIN_BIN, 'jobs', 'events', '--follow', '--json', '--limit', '1'], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  const pid = follower.pid!
  const closed = new Promise<number | null>((resolve) => follower.on('close', (code) => resolve(code)))
  t.teardown(() => void (follower.exitCode === null && follower.signalCode === null && follower.kill('SIGKILL')))
  let out = ''
  let err = ''
  follower.stdout.on('data', (d: Buffer) => (out += d.toString()))
  follower.stderr.on('data', (d: Buffer) => (err += d.toString()))
  await waitFor(async () => (out.includes('worker_exited') ? true : undefined), 'the newest event')
  appendFileSync(eventsFile, event(new Date().toISOString(), 'health_warn', { reason: 'db_connection_degraded' }))
  await waitFor(async () => (out.includes('health_warn') ? true : undefined), 'a new event to be followed')
  process.kill(pid, 'SIGINT')
  t.equal(await closed, 0, `Ctrl-C ends following: ${err}`)
  const lines = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  t.match(
    lines,
    [
      { event: 'worker_exited', supervisor: 'jobs' },
      { event: 'health_warn', reason: 'db_connection_degraded' },
    ],
    'each event once, one JSON object a line',
  )
  t.equal(lines.length, 2, 'no event printed twice')

  const requests = await brain(['requests', '--errors-only', '--json'])
  t.equal(requests.code, 0, requests.stderr)
  t.same(requests.json<{ requests: unknown[] }>().requests, [], 'no request failed yet')
  t.equal((await brain(['requests', '--limit', '0', '--json'])).code, 1, 'the schema checks the flags')
  const logged = await brain(['requests', '--route', '/mcp', '--no-json'])
  t.match(logged.stdout, /^\S+Z {2}200 {2}\/mcp {2}tools\/call list_supervisor_events {2}thin-ops {2}\d+ ms$/m, 'the served calls of this client, one a line')

  const health = await brain(['health', '--json'])
  t.equal(health.code, 0, health.stderr)
  t.match(health.json(), { status: 'ok', db: 'ok', engine: 'postgres' }, "the served brain's health")
  t.match((await brain(['health', '--no-json'])).stdout, /^ok {2}database ok \(postgres, \d+ ms\)\n$/)
  t.notOk(existsSync(join(home, 'db')), 'no local brain was made')
})

t.test('a local brain reads its own supervisor events without opening its database', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-local-events-'))
  mkdirSync(join(home, 'ingest'))
  appendFileSync(join(home, 'ingest', 'supervisor-events.jsonl'), event('2026-02-01T00:00:00.000Z', 'source_started', { source: 'inbox' }))
  appendFileSync(join(home, 'supervisor-events.jsonl'), event('2026-01-31T00:00:00.000Z', 'worker_started'))
  const listed = await runBrain(['jobs', 'events', '--no-json'], { BRAIN_HOME: home })
  t.equal(listed.code, 0, listed.stderr)
  t.equal(listed.stdout, '2026-01-31T00:00:00.000Z  jobs    worker_started\n2026-02-01T00:00:00.000Z  ingest  source_started  source=inbox\n', 'both supervisors, in time order')
  t.notOk(existsSync(join(home, 'db')), 'no database was made to read a file')
})
