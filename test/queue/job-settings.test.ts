import t from 'tap'
import { cliBrain } from '../helpers/cli.js'

t.test('a job runs with the settings of the command that submitted it, through the service', async (t) => {
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  // The service starts with an environment that does not allow shell jobs.
  t.equal((await brain.run(['list'])).code, 0)
  const refused = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"echo refused"}', '--wait'])
  t.equal(refused.code, 1, 'without the setting the shell job is refused')
  const allowed = await brain.run(['jobs', 'submit', 'shell', '--data', '{"cmd":"echo hi"}', '--wait'], { env: { BRAIN_ALLOW_SHELL_JOBS: '1' } })
  t.equal(allowed.code, 0, allowed.stderr)
  t.match(allowed.json(), { status: 'completed', result: { stdout: /hi/ } }, "the submitter's BRAIN_ALLOW_SHELL_JOBS=1 applies in the service's worker")
  const stored = await brain.run(['jobs', 'get', allowed.json<{ id: string }>().id])
  t.notMatch(stored.stdout, /OPENAI_API_KEY|DATABASE_URL/, 'no secret or connection URL is kept with the job')
})
