/**
 * A job that kills every process that runs it (a poison page) is not retried without bound:
 * after max_stalled stalls it is dead, and its error names the last place it reported.
 */
import t from 'tap'
import { openQueue } from '../../src/queue/index.js'
import { storeProgress } from '../../src/queue/boss-sql.js'
import { claimJob } from '../../src/queue/boss-sql.js'
import { rescueStalled } from '../../src/queue/rescue.js'
import { engineTest } from '../helpers/engines.js'
import { cliBrain } from '../helpers/cli.js'
import { FAST_TIMINGS, resolverOf, testConfig, testLogger } from '../queue/helpers.js'

const RESCUE = { livenessMs: 300, minAgeMs: 0 }

engineTest(t, 'a stalled job names the file it was at, and ends dead after max_stalled', async (t, { db }) => {
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger(), timings: FAST_TIMINGS, resolver: resolverOf({}) })
  const job = await queue.submit('import', { path: '/notes' }, { maxStalled: 1 })
  for (const attempt of [0, 1]) {
    t.ok(await claimJob(db, 'import', job.id), `claim ${attempt + 1}`)
    await storeProgress(db, { name: 'import', id: job.id, fence: attempt }, { done: 3, total: 9, message: 'poison/bomb.md' }, false)
    await rescueStalled(db, RESCUE)
  }
  const dead = await queue.get(job.id)
  t.match(dead, { status: 'dead', attempts: 2 })
  t.match(dead?.error, { code: 'job_stalled', message: /last at poison\/bomb\.md/, hint: /not retried; look at poison\/bomb\.md first/ })
  t.same(await rescueStalled(db, RESCUE), [], 'it is not handed out again')
})

t.test('a job that kills the brain service ends dead instead of killing every next service', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  const env = { BRAIN_ALLOW_SHELL_JOBS: '1' }
  // The shell's parent is the process running the job: the resident service.
  const submitted = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"kill -9 $PPID"}', '--max-stalled', '1'], { env })
  t.equal(submitted.code, 0, submitted.stderr)
  const id = submitted.json<{ id: string }>().id
  let job: { status: string; attempts: number; error?: { code: string } } | undefined
  const deadline = Date.now() + 120_000
  // Each command starts a new service, which returns the orphaned job and runs it again.
  while (Date.now() < deadline) {
    const got = await brain.run(['jobs', 'get', id])
    if (got.code === 0) {
      const current = got.json<{ status: string; attempts: number; error?: { code: string } }>()
      job = current
      if (current.status === 'dead') break
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  t.match(job, { status: 'dead', attempts: 2, error: { code: 'job_stalled' } }, 'dead after two deaths (max_stalled 1)')
  t.equal((await brain.run(['list'])).code, 0, 'the brain works again')
})
