// test-runner: waiting lane (it waits up to a minute for a cron schedule to fire)
import t from 'tap'
import { cliBrain, spawnBrain } from '../helpers/cli.js'
import { stopChild } from '../helpers/processes.js'

interface Job {
  id: string
  name: string
  status: string
}

t.test('jobs work attached to the service runs the autopilot on its schedule', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  t.equal((await brain.run(['list'])).code, 0)
  const worker = spawnBrain(['jobs', 'work', '--autopilot-cron', '* * * * *'], brain.env)
  let said = ''
  worker.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()))
  worker.stdout.resume()
  t.teardown(() => stopChild(worker))
  let cycles: Job[] = []
  // pg-boss checks its schedules every few seconds; a minute cron fires within about 70 s. Each
  // look is a CLI process, so the test looks every few seconds rather than every second.
  const deadline = Date.now() + 180_000
  while (cycles.length === 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 4000))
    const listed = await brain.run(['jobs', 'list', '--name', 'autopilot-cycle'])
    if (listed.code === 0) cycles = listed.json<Job[]>()
  }
  t.ok(cycles.length > 0, 'an autopilot cycle was started by the schedule')
  const workers = await brain.run(['jobs', 'workers', '--json'])
  t.match(workers.json(), { workers: [{ kind: /^(worker|inline)$/, silent_seconds: Number, active_jobs: Array }] })
  const text = await brain.run(['jobs', 'workers', '--no-json'])
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /^(worker|inline) +pid \d+ on \S+ {2}.+ {2}×\d+ {2}heartbeat \d+s ago {2}active \d+$/m, 'one line per worker')
  t.match(said, /attached until interrupted/)
  t.match(said, /autopilot "\* \* \* \* \*"/, 'the command says which schedule it keeps')
})
