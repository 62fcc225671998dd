import t from 'tap'
import { cliBrain, servedCliMode } from '../helpers/cli.js'

interface JobJson {
  id: string
  name: string
  status: string
  result: unknown
  error: Record<string, unknown> | null
  idempotency_key: string | null
  max_stalled: number
  timeout_ms: number
}

t.test('jobs submit --wait runs the job inline in the command on the embedded engine', async (t) => {
  const brain = await cliBrain('pglite')
  t.teardown(brain.cleanup)
  const ran = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"echo hi"}', '--wait', '--timeout', '30s'], { env: { BRAIN_ALLOW_SHELL_JOBS: '1' } })
  t.equal(ran.code, 0, ran.stderr)
  t.match(ran.json<JobJson>(), { name: 'shell', status: 'completed', attempts: 1, result: { exit_code: 0, stdout: 'hi\n' }, timeout_ms: 30_000, max_stalled: 1 })
})

// The commands are the same code on both engines (the façade tests cover both); each spawn of
// an embedded brain costs seconds, so the full tour runs against PostgreSQL, where no worker is
// alive and --wait runs the job in the command.
t.test('jobs submit, list, get, cancel, retry, stats, dream and usage errors through the CLI', async (t) => {
  const brain = await cliBrain('postgres', { mode: servedCliMode() })
  t.teardown(brain.cleanup)
  const refused = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"echo hi"}', '--wait'])
  t.equal(refused.code, 1)
  t.match(refused.json(), { error: { class: 'NotAvailableError', code: 'shell_jobs_disabled' } })
  const dream = await brain.run(['dream', '--phase', 'queue-housekeeping'])
  t.equal(dream.code, 0, dream.stderr)
  t.match(dream.json(), { phases: [{ phase: 'queue-housekeeping', status: 'completed' }], failed: [] })
  const ran = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"exit 4"}', '--wait'], { env: { BRAIN_ALLOW_SHELL_JOBS: '1' } })
  t.match(ran.json(), { error: { class: 'ShellCommandError', code: 'shell_command_failed' } })
  const keyed = await brain.run(['jobs', 'submit', 'embed', '--idempotency-key', 'k1', '--max-stalled', '2'])
  const again = await brain.run(['jobs', 'submit', 'embed', '--idempotency-key', 'k1'])
  t.equal(again.json<JobJson>().id, keyed.json<JobJson>().id, 'same key, same job')
  t.match(keyed.json<JobJson>(), { status: 'waiting', idempotency_key: 'k1', max_stalled: 2 })

  const dead = await brain.run(['jobs', 'list', '--status', 'dead'])
  t.same(
    dead.json<JobJson[]>().map((j) => j.name),
    ['shell', 'shell'],
  )
  const job = dead.json<JobJson[]>()[0]!
  const got = await brain.run(['jobs', 'get', job.id])
  t.match(got.json<JobJson>(), { id: job.id, status: 'dead', error: { class: 'ShellCommandError' } })
  const missing = await brain.run(['jobs', 'get', '00000000-0000-4000-8000-000000000000'])
  t.match(missing.json(), { error: { class: 'NotFoundError', code: 'job_not_found' } })

  const embedId = keyed.json<JobJson>().id
  t.equal((await brain.run(['jobs', 'cancel', embedId])).code, 0)
  t.equal((await brain.run(['jobs', 'retry', embedId])).code, 0)
  const stats = await brain.run(['jobs', 'stats'])
  t.match(stats.json(), { waiting: 1, completed: 1, dead: 2, by_name: { shell: { dead: 2 }, embed: { waiting: 1 }, 'autopilot-cycle': { completed: 1 } } })

  const unknown = await brain.run(['jobs', 'submit', 'nap'])
  t.match(unknown.json(), { error: { class: 'UsageError', code: 'unknown_job_name' } })
  const human = await brain.run(['jobs', 'list', '--no-json'])
  t.match(human.stdout, /shell\s+dead/)
})
