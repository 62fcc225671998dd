/**
 * `brain hook claude-code <event>` end to end, through the real binary and the resident service
 * on both engines: JSON in and out for each event, the stop hook's capture job, and the quiet
 * exit 0 for bad stdin, a missing brain and a service that does not answer.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { servicePaths } from '../../src/service/paths.js'
import { cliBrain, runBrain, servicePid, spawnBrain, stopService, type CliBrain } from '../helpers/cli.js'
import { stopChild } from '../helpers/processes.js'
import { ENGINES } from '../helpers/engines.js'

/** A slow machine's first hook starts the service; the default wait is for a warm one. */
const HOOK_ENV = { BRAIN_HOOK_TIMEOUT_MS: '120000' }

function hook(brain: CliBrain, event: string, input: unknown): ReturnType<CliBrain['run']> {
  return brain.run(['hook', 'claude-code', event], { input: typeof input === 'string' ? input : JSON.stringify(input), env: HOOK_ENV })
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await probe()
    if (found !== null) return found
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function transcript(dir: string, sessionId: string): string {
  const path = join(dir, `${sessionId}.jsonl`)
  const lines = [
    { type: 'summary', summary: 'call prep' },
    { type: 'user', sessionId, timestamp: '2026-11-20T09:00:00Z', message: { role: 'user', content: 'Prep my call with Tobiah Marsh. The key is ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab' } },
    { type: 'assistant', sessionId, timestamp: '2026-11-20T09:00:04Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Tobiah Marsh said his budget closes in June.' }] } },
  ]
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  return path
}

for (const engine of ENGINES) {
  t.test(`claude-code hooks (${engine})`, async (t) => {
    const brain = await cliBrain(engine, { mode: 'service' })
    t.teardown(brain.cleanup)
    if (engine === 'postgres') {
      // On the server engine jobs wait for a worker, as they do for users who run one.
      const worker = spawnBrain(['jobs', 'work'], { ...brain.env, BRAIN_NO_SERVICE: '1' })
      worker.stdout.resume()
      worker.stderr.resume()
      t.teardown(() => stopChild(worker))
    }
    const put = await brain.run(['put', 'people/tobiah-marsh'], { input: '---\ntype: person\naliases: [Toby]\n---\n# Tobiah Marsh\n\nBuyer at Marrowline. His budget closes in June.\n' })
    t.equal(put.code, 0, put.stderr)

    t.test('session-start orients: what the brain holds and how to search it', async (t) => {
      const res = await hook(brain, 'session-start', { session_id: 'sess-1', hook_event_name: 'SessionStart', source: 'startup', cwd: '/tmp' })
      t.equal(res.code, 0)
      t.equal(res.stderr, '')
      const out = res.json<{ hookSpecificOutput: { hookEventName: string; additionalContext: string } }>()
      t.equal(out.hookSpecificOutput.hookEventName, 'SessionStart')
      t.match(out.hookSpecificOutput.additionalContext, /holds 1 page: 1 person\./)
    })

    t.test('user-prompt-submit recalls what the prompt names, once a session', async (t) => {
      const first = await hook(brain, 'user-prompt-submit', { session_id: 'sess-2', hook_event_name: 'UserPromptSubmit', prompt: 'prep my call with Tobiah Marsh' })
      t.equal(first.code, 0, first.stderr)
      const out = first.json<{ hookSpecificOutput: { hookEventName: string; additionalContext: string } }>()
      t.equal(out.hookSpecificOutput.hookEventName, 'UserPromptSubmit')
      t.match(out.hookSpecificOutput.additionalContext, /people\/tobiah-marsh \(person\)/)
      t.match(out.hookSpecificOutput.additionalContext, /budget closes in June/)
      const again = await hook(brain, 'user-prompt-submit', { session_id: 'sess-2', prompt: 'and Tobiah Marsh again' })
      t.equal(again.code, 0)
      t.equal(again.stdout, '', 'already volunteered in this session: nothing to say')
      const smallTalk = await hook(brain, 'user-prompt-submit', { session_id: 'sess-3', prompt: 'thanks, that is all' })
      t.equal(smallTalk.code, 0)
      t.equal(smallTalk.stdout, '', 'small talk: no output at all')
    })

    t.test('stop enqueues the capture and returns; the session page appears, scrubbed and linked', async (t) => {
      const dir = mkdtempSync(join(tmpdir(), 'brain-transcript-'))
      const path = transcript(dir, 'sess-4')
      const res = await hook(brain, 'stop', { session_id: 'sess-4', transcript_path: path, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false })
      t.equal(res.code, 0, res.stderr)
      t.equal(res.stdout, '', 'the stop hook prints nothing')
      const page = await waitFor('the session page', async () => {
        const got = await brain.run(['get', 'sessions/claude-code/sess-4', '--json'])
        return got.code === 0 ? got.json<{ compiled_truth: string; title: string; type: string; frontmatter: Record<string, unknown> }>() : null
      })
      t.equal(page.type, 'session')
      t.match(page.frontmatter, { harness: 'claude-code', session_id: 'sess-4' })
      t.match(page.compiled_truth, /\[redacted:github-token\]/)
      t.notMatch(JSON.stringify(page), /ghp_ABCDEF/, 'the token never reaches the brain')
      const links = await brain.run(['links', 'sessions/claude-code/sess-4', '--json'])
      t.match(links.stdout, /people\/tobiah-marsh/, 'linked to the entity it names')

      // A pre-compact of the same, unchanged transcript is the same job, not a second capture.
      const compact = await hook(brain, 'pre-compact', { session_id: 'sess-4', transcript_path: path, hook_event_name: 'PreCompact', trigger: 'auto' })
      t.equal(compact.code, 0)
      t.equal(compact.stdout, '')
    })

    t.test('with no service running, the hook answers itself and leaves a service for the next hook', async (t) => {
      await stopService(brain.home)
      const res = await hook(brain, 'user-prompt-submit', { session_id: 'sess-cold', prompt: 'prep my call with Tobiah Marsh' })
      t.equal(res.code, 0, res.stderr)
      t.match(res.stdout, /people\/tobiah-marsh/)
      t.match(readFileSync(join(brain.home, 'logs', 'hooks.log'), 'utf8'), /injected 1: people\/tobiah-marsh \[in-process, service started\]/)
      await waitFor('the service the hook started', async () => servicePid(brain.home))
      const warm = await hook(brain, 'user-prompt-submit', { session_id: 'sess-warm', prompt: 'prep my call with Tobiah Marsh' })
      t.match(warm.stdout, /people\/tobiah-marsh/)
      t.match(readFileSync(join(brain.home, 'logs', 'hooks.log'), 'utf8'), /injected 1: people\/tobiah-marsh \[service\]/)
    })

    t.test('bad stdin: exit 0, no output, a line in the hooks log', async (t) => {
      for (const input of ['not json', '[1]', '']) {
        const res = await hook(brain, 'user-prompt-submit', input)
        t.equal(res.code, 0, JSON.stringify(input))
        t.equal(res.stdout, '')
        t.equal(res.stderr, '')
      }
      t.match(readFileSync(join(brain.home, 'logs', 'hooks.log'), 'utf8'), /hook claude-code user-prompt-submit: stdin is not a hook JSON object/)
      const unknown = await brain.run(['hook', 'claude-code', 'no-such-event'], { input: '{}' })
      t.equal(unknown.code, 0)
      t.equal(unknown.stdout, '')
      const noPrompt = await hook(brain, 'user-prompt-submit', { session_id: 'x' })
      t.equal(noPrompt.code, 0)
      t.equal(noPrompt.stdout, '')
    })
  })
}

t.test('a missing brain: exit 0 and no output, and no brain made', async (t) => {
  const home = join(mkdtempSync(join(tmpdir(), 'brain-none-')), 'nothing-here')
  for (const event of ['session-start', 'user-prompt-submit', 'stop']) {
    const res = await runBrain(['hook', 'claude-code', event], { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0' }, JSON.stringify({ session_id: 's', prompt: 'hello Toby', transcript_path: '/nope' }))
    t.equal(res.code, 0, event)
    t.equal(res.stdout, '')
    t.equal(res.stderr, '')
  }
  t.notOk(existsSync(home), 'the hook made no brain home')
})

t.test('a service that never answers: exit 0, no output, logged', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'brain-slow-'))
  mkdirSync(join(home, 'db'))
  const held: Socket[] = []
  const server = createServer((socket) => held.push(socket))
  await new Promise<void>((resolve) => server.listen(servicePaths(home).socket, resolve))
  t.teardown(() => {
    for (const s of held) s.destroy()
    server.close()
  })
  const res = await runBrain(
    ['hook', 'claude-code', 'user-prompt-submit'],
    { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0', BRAIN_HOOK_TIMEOUT_MS: '300' },
    JSON.stringify({ session_id: 's', prompt: 'hello Toby' }),
  )
  t.equal(res.code, 0)
  t.equal(res.stdout, '')
  t.equal(res.stderr, '')
  t.ok(held.length > 0, 'the hook did reach the socket')
  t.match(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8'), /recall: the brain service did not answer in time/)
})
