/**
 * The bundled hook client (`dist/bundle/hook-client.cjs`), which the launcher and bin/brain.js
 * run for `brain hook …`: it is one CommonJS file that loads only node's own modules; it hands a hook to
 * the service and prints the service's answer, on both engines; with no service, or a service
 * that leaves the hook to it, it answers through the ES-module hook; a hook the service does not
 * know ends without waiting for stdin; the launcher runs it for hooks.
 */
import { spawn } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { launcherScript } from '../../src/agents/launcher.js'
import { callOperation } from '../../src/cli/call-operation.js'
import { answerHookInService } from '../../src/cli/hook-service.js'
import { loadConfig } from '../../src/config/index.js'
import { openDatabase } from '../../src/db/open.js'
import { importPage } from '../../src/pages/index.js'
import { BrainService, type CallOperation } from '../../src/service/index.js'
import { servicePaths } from '../../src/service/paths.js'
import { FrameDecoder, Frame } from '../../src/service/protocol.js'
import { silentLogger } from '../../src/util/logger.js'
import { BRAIN_BIN, childEnv } from '../helpers/cli.js'
import { createPgDatabase, ENGINES } from '../helpers/engines.js'

const CLIENT = fileURLToPath(new URL('../../bundle/hook-client.cjs', import.meta.url))

interface Ran {
  code: number | null
  stdout: string
}

/** Runs a program with hook input on stdin; with `input` null, stdin stays open until the program exits. */
function run(program: string, args: string[], env: Record<string, string>, input: unknown): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: childEnv(env), stdio: ['pipe', 'pipe', 'ignore'] })
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.on('error', reject)
    // On exit, not close: a stdin left open is this test's end of the pipe.
    child.on('exit', (code) => {
      child.stdin.destroy()
      if (child.stdout.readableEnded) resolve({ code, stdout })
      else child.stdout.once('end', () => resolve({ code, stdout }))
    })
    if (input !== null) child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input))
  })
}

const client = (env: Record<string, string>, event: string, input: unknown): Promise<Ran> => run(process.execPath, [CLIENT, 'hook', 'claude-code', event], env, input)

const lastLog = (home: string): string =>
  readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')
    .trimEnd()
    .split('\n')
    .pop() ?? ''

t.test('the client is one CommonJS file that loads only node’s own modules', async (t) => {
  const source = readFileSync(CLIENT, 'utf8')
  const required = [...source.matchAll(/\brequire\(("[^"]*"|'[^']*')\)/g)].map((m) => m[1]!.slice(1, -1))
  t.ok(required.length > 0, 'it requires something')
  t.same(
    required.filter((name) => !name.startsWith('node:')),
    [],
    'nothing but node: modules',
  )
  // The ES-module hook and CLI, for a hook no service answers, are found beside it at run time.
  t.match(source, /import\(new URL\("\.\/hook\.js", __brainModuleUrl\)\.href\)/)
})

for (const engine of ENGINES) {
  t.test(`the client and the service (${engine})`, async (t) => {
    const home = mkdtempSync(join(tmpdir(), 'brain-hook-client-'))
    const env: Record<string, string> = { BRAIN_HOME: home, BRAIN_NO_SERVICE: '0', BRAIN_EMBEDDING_PROVIDER: 'local', BRAIN_HOOK_TIMEOUT_MS: '120000' }
    if (engine === 'postgres') {
      const created = await createPgDatabase({ migrated: true })
      env.BRAIN_DATABASE_URL = created.url
      t.teardown(created.drop)
    }
    const db = await openDatabase(loadConfig({ env }).engine)
    try {
      const content = '---\ntitle: Tobiah Marsh\ntype: person\nsummary: Buyer at Marrowline.\n---\n\nTobiah Marsh.\n'
      await importPage(db, { slug: 'people/tobiah-marsh', kind: 'markdown', content, path: 'people/tobiah-marsh.md' })
    } finally {
      await db.close()
    }
    const config = loadConfig({ env })
    const call: CallOperation = (operation, host, signal) => callOperation(operation, { host, signal })
    const calls = { callOperation: call }

    t.test('the service answers the hook; the client prints it and logs it', async (t) => {
      const service = new BrainService(config, silentLogger, { ...calls, answerHook: answerHookInService })
      await service.start()
      t.teardown(() => service.stop('test over'))
      const first = await client(env, 'user-prompt-submit', { session_id: 'c-1', prompt: 'prep my call with Tobiah Marsh', cwd: home })
      t.equal(first.code, 0)
      const out = JSON.parse(first.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } }
      t.equal(out.hookSpecificOutput.hookEventName, 'UserPromptSubmit')
      t.match(out.hookSpecificOutput.additionalContext, /people\/tobiah-marsh \(person\): Buyer at Marrowline\./)
      t.match(lastLog(home), /hook claude-code user-prompt-submit: injected 1: people\/tobiah-marsh \[service\] \(\d+ ms\)$/)
      const again = await client(env, 'user-prompt-submit', { session_id: 'c-1', prompt: 'Tobiah Marsh again' })
      t.equal(again.stdout, '', 'told once a session')
      t.match(lastLog(home), /nothing injected: nothing named, or all of it told before in this session \[service\]/)
      const start = await client(env, 'session-start', { session_id: 'c-2', source: 'startup' })
      t.match(start.stdout, /holds 1 page: 1 person\./)
      const bad = await client(env, 'user-prompt-submit', 'not json')
      t.same(bad, { code: 0, stdout: '' })
      t.match(lastLog(home), /user-prompt-submit: stdin is not a hook JSON object \(\d+ ms\)$/)
      // The service answers before the client reads a byte: stdin stays open, and the hook still ends.
      const unknown = await client(env, 'no-such-event', null)
      t.same(unknown, { code: 0, stdout: '' })
      t.match(lastLog(home), /hook claude-code no-such-event: unknown harness or event/)
      t.equal(service.status().clients, 0, 'no hook is left running')
    })

    t.test('a service that leaves hooks to the client: answered through the ES-module hook', async (t) => {
      const service = new BrainService(config, silentLogger, calls)
      await service.start()
      t.teardown(() => service.stop('test over'))
      const res = await client(env, 'user-prompt-submit', { session_id: 'c-3', prompt: 'prep my call with Tobiah Marsh' })
      t.match(res.stdout, /people\/tobiah-marsh/)
      t.match(lastLog(home), /injected 1: people\/tobiah-marsh \[service\]/)
    })

    t.test('no service: the client answers in its own process', async (t) => {
      const res = await client({ ...env, BRAIN_NO_SERVICE: '1' }, 'user-prompt-submit', { session_id: 'c-4', prompt: 'prep my call with Tobiah Marsh' })
      t.equal(res.code, 0)
      t.match(res.stdout, /people\/tobiah-marsh/)
      t.match(lastLog(home), /injected 1: people\/tobiah-marsh \[in-process\]/)
    })
  })
}

t.test('the launcher runs hooks with the client, and everything else with bin/brain.js', async (t) => {
  const script = launcherScript([process.execPath, '/opt/brain/bin/brain.js'], '/home/u/.brain')
  t.match(script, `if [ "$1" = hook ] && [ -f /opt/brain/dist/bundle/hook-client.cjs ]; then exec ${process.execPath} /opt/brain/dist/bundle/hook-client.cjs "$@"; fi\n`)
  t.notMatch(launcherScript(['/usr/local/bin/brain'], '/home/u/.brain'), /hook-client/, 'a command of the user’s own is run as it is')

  // Through a launcher of this install, to a socket whose listener never answers.
  const home = mkdtempSync(join(tmpdir(), 'brain-launcher-'))
  mkdirSync(join(home, 'db'))
  const launcher = join(home, 'bin', 'brain')
  mkdirSync(join(home, 'bin'))
  writeFileSync(launcher, launcherScript([process.execPath, BRAIN_BIN], home))
  chmodSync(launcher, 0o755)
  const kinds: string[] = []
  const held: Socket[] = []
  const server = createServer((socket) => {
    held.push(socket)
    const decoder = new FrameDecoder((type, payload) => {
      if (type === Frame.hello) kinds.push((JSON.parse(payload.toString('utf8')) as { kind: string }).kind)
    })
    socket.on('data', (chunk: Buffer) => decoder.push(chunk))
  })
  await new Promise<void>((resolve) => server.listen(servicePaths(home).socket, resolve))
  t.teardown(() => {
    for (const s of held) s.destroy()
    server.close()
  })
  const res = await run(launcher, ['hook', 'claude-code', 'user-prompt-submit'], { BRAIN_NO_SERVICE: '0', BRAIN_HOOK_TIMEOUT_MS: '300' }, { session_id: 's', prompt: 'hello Toby' })
  t.same(res, { code: 0, stdout: '' })
  t.same(kinds, ['hook'], "the client's hello, not the ES-module hook's operation call")
  t.match(lastLog(home), /recall: the brain service did not answer in time/)
})
