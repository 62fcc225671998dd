import { mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { Database } from '../../src/db/types.js'
import type { JobContext } from '../../src/queue/handler.js'
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
  await t.rejects(shell(ctx({ cmd: 'echo hi' }, { allow: false })), { errorClass: 'NotAvailableError', code: 'shell_jobs_disabled' })
})

t.test('an untrusted payload never runs, nor does a job without a command', async (t) => {
  await t.rejects(shell(ctx({ cmd: 'echo hi', untrusted_payload: true })), { code: 'shell_untrusted_payload' })
})

t.test('data that is not exactly one of cmd or argv ends with invalid_shell_job', async (t) => {
  const invalid = { errorClass: 'ValidationError', code: 'invalid_shell_job' }
  await t.rejects(shell(ctx({})), { ...invalid, message: /needs "cmd".*or "argv"/ })
  await t.rejects(shell(ctx({ cmd: 'echo a', argv: ['echo', 'b'] })), { ...invalid, message: /not both/ })
  await t.rejects(shell(ctx({ command: 'echo hi' })), { ...invalid, message: /does not take "command"/ })
  await t.rejects(shell(ctx({ cmd: '  ' })), { ...invalid, message: /"cmd" must be a non-empty string/ })
  await t.rejects(shell(ctx({ cmd: ['echo'] })), { ...invalid, message: /"cmd" must be/ })
  await t.rejects(shell(ctx({ argv: 'echo hi' })), { ...invalid, message: /"argv" must be/ })
  await t.rejects(shell(ctx({ argv: [] })), { ...invalid, message: /"argv" must be/ })
  await t.rejects(shell(ctx({ argv: ['echo', 3] })), { ...invalid, message: /"argv" must be/ })
  await t.rejects(shell(ctx({ cmd: 'pwd', cwd: 'relative/dir' })), { ...invalid, message: /"cwd" must be an absolute path/ })
  await t.rejects(shell(ctx({ cmd: 'pwd', env: ['A=1'] })), { ...invalid, message: /"env" must be an object/ })
  const secretLeak = await shell(ctx({ cmd: 'true', env: { TOKEN: 'hunter2', COUNT: 3 } })).catch((e: unknown) => e)
  t.match(secretLeak, { ...invalid, message: /"env\.COUNT" must be a string/ })
  t.notMatch(JSON.stringify({ m: (secretLeak as Error).message, h: (secretLeak as { hint: string }).hint }), /hunter2/)
})

t.test('cmd runs through /bin/sh in the given absolute cwd with env merged over a minimal environment', async (t) => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'brain-shell-')))
  const logger = testLogger()
  const result = await shell({ ...ctx({ cmd: 'pwd; echo "$GREETING|$TAP|$LANG"', cwd: dir, env: { GREETING: 'hello there' } }), logger })
  t.match(result, { exit_code: 0, stdout: `${dir}\nhello there||C.UTF-8\n` }, "the runner's own environment (TAP) is not inherited")
  const secret = await shell({ ...ctx({ cmd: 'echo "$API_TOKEN" | wc -c', env: { API_TOKEN: 's3cret-value' } }), logger })
  t.match(secret, { exit_code: 0, stdout: /13/ })
  t.notMatch(JSON.stringify(logger.lines), /s3cret-value/, 'env values are never logged')
})

t.test('argv runs without a shell, so metacharacters stay literal', async (t) => {
  t.match(await shell(ctx({ argv: ['echo', '$HOME', '; rm -rf /', '`id`'] })), { exit_code: 0, stdout: '$HOME ; rm -rf / `id`\n' })
  await t.rejects(shell(ctx({ argv: ['/no/such/program-xyz'] })), { errorClass: 'ShellCommandError', code: 'shell_spawn_failed' })
  await t.rejects(shell(ctx({ argv: ['sh', '-c', 'exit 5'] })), { code: 'shell_command_failed', message: /code 5/ })
})

t.test('a command runs and returns its exit code and output', async (t) => {
  t.same(await shell(ctx({ cmd: 'echo out; echo err >&2' })), { exit_code: 0, signal: null, stdout: 'out\n', stderr: 'err\n' })
})

t.test('a failing command fails the job with its stderr in the hint', async (t) => {
  await t.rejects(shell(ctx({ cmd: 'echo nope >&2; exit 3' })), { errorClass: 'ShellCommandError', code: 'shell_command_failed', hint: 'nope' })
})

t.test('on abort the command gets SIGTERM', async (t) => {
  const controller = new AbortController()
  const running = shell(ctx({ cmd: 'sleep 30' }, { signal: controller.signal }))
  setTimeout(() => controller.abort(new Error('timeout')), 100)
  const started = Date.now()
  await t.rejects(running, { message: 'timeout' })
  t.ok(Date.now() - started < 5000, 'sleep was stopped, not waited for')
})

t.test('a command that ignores SIGTERM is killed with SIGKILL after the grace period', async (t) => {
  const controller = new AbortController()
  const running = shell(ctx({ cmd: "trap '' TERM; echo ready; while :; do sleep 0.05; done" }, { signal: controller.signal }))
  setTimeout(() => controller.abort(new Error('timeout')), 200)
  const started = Date.now()
  await t.rejects(running, { message: 'timeout' })
  const took = Date.now() - started
  t.ok(took >= 150, `it survived SIGTERM for the grace period (${took} ms)`)
})
