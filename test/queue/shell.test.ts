import t from 'tap'
import type { Database } from '../../src/db/types.js'
import type { JobContext } from '../../workers/handler.js'
import { createShellHandler } from '../../workers/shell.js'
import { testConfig, testLogger } from './helpers.js'

function ctx(data: Record<string, unknown>, options: { allow?: boolean; signal?: AbortSignal } = {}): JobContext {
  return {
    jobId: 'j',
    name: 'shell',
    data,
    signal: options.signal ?? new AbortController().signal,
    db: {} as Database,
    config: testConfig(options.allow === false ? {} : { BRAIN_ALLOW_SHELL_JOBS: '1' }),
    logger: testLogger(),
    progress: () => undefined,
  }
}

const shell = createShellHandler({ killGraceMs: 200 })

t.test('shell jobs need BRAIN_ALLOW_SHELL_JOBS=1', async (t) => {
  await t.rejects(shell(ctx({ command: 'echo hi' }, { allow: false })), { errorClass: 'NotAvailableError', code: 'shell_jobs_disabled' })
})

t.test('an untrusted payload never runs, nor does a job without a command', async (t) => {
  await t.rejects(shell(ctx({ command: 'echo hi', untrusted_payload: true })), { code: 'shell_untrusted_payload' })
  await t.rejects(shell(ctx({})), { errorClass: 'UsageError', code: 'shell_requires_command' })
})

t.test('a command runs and returns its exit code and output', async (t) => {
  t.same(await shell(ctx({ command: 'echo out; echo err >&2' })), { exit_code: 0, signal: null, stdout: 'out\n', stderr: 'err\n' })
})

t.test('a failing command fails the job with its stderr in the hint', async (t) => {
  await t.rejects(shell(ctx({ command: 'echo nope >&2; exit 3' })), { errorClass: 'ShellCommandError', code: 'shell_command_failed', hint: 'nope' })
})

t.test('on abort the command gets SIGTERM', async (t) => {
  const controller = new AbortController()
  const running = shell(ctx({ command: 'sleep 30' }, { signal: controller.signal }))
  setTimeout(() => controller.abort(new Error('timeout')), 100)
  const started = Date.now()
  await t.rejects(running, { message: 'timeout' })
  t.ok(Date.now() - started < 5000, 'sleep was stopped, not waited for')
})

t.test('a command that ignores SIGTERM is killed with SIGKILL after the grace period', async (t) => {
  const controller = new AbortController()
  const running = shell(ctx({ command: "trap '' TERM; echo ready; while :; do sleep 0.05; done" }, { signal: controller.signal }))
  setTimeout(() => controller.abort(new Error('timeout')), 200)
  const started = Date.now()
  await t.rejects(running, { message: 'timeout' })
  const took = Date.now() - started
  t.ok(took >= 150, `it survived SIGTERM for the grace period (${took} ms)`)
})
