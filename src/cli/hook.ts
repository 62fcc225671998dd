/**
 * `brain hook <harness> <event>`: what a coding agent runs on its lifecycle events. A thin client
 * of the resident service that loads no command framework: it reads the hook's JSON on stdin,
 * asks the service (recall, stats, or a capture job), and answers in the harness's JSON form.
 * It never blocks the agent: whatever goes wrong (bad stdin, no brain, a slow service) ends in
 * exit 0 with nothing on stdout, and a line in the brain's `logs/hooks.log`.
 */
import { appendFileSync, existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import { hookReply, hookSpec, orientationText, parseHookInput, recallContext, type HookInput, type HookSpec } from '../agents/hook-events.js'
import type { BrainEnv } from '../config/index.js'
import { brainExists, brainHome, hookTimeoutMs } from '../config/home.js'

/** Hook JSON beyond this is not a hook's; it is dropped unread. */
const MAX_STDIN_BYTES = 4 * 1024 * 1024

interface HookIo {
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  cwd: string
}

function logLine(env: BrainEnv, message: string): void {
  const home = brainHome(env)
  // A hook never makes a brain home: without one there is nowhere to log, and nothing to say.
  if (!existsSync(home)) return
  try {
    mkdirSync(join(home, 'logs'), { recursive: true, mode: 0o700 })
    appendFileSync(join(home, 'logs', 'hooks.log'), `${new Date().toISOString()} ${message}\n`, { mode: 0o600 })
  } catch {
    // Logging is best effort; the hook still must not fail.
  }
}

function readAll(stream: NodeJS.ReadableStream, deadline: Promise<void>): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = (value: string | null): void => {
      stream.removeAllListeners('data')
      resolve(value)
    }
    stream.on('data', (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      size += buf.length
      if (size > MAX_STDIN_BYTES) return done(null)
      chunks.push(buf)
    })
    stream.once('end', () => done(Buffer.concat(chunks).toString('utf8')))
    stream.once('error', () => done(null))
    void deadline.then(() => done(null))
  })
}

/** Runs one command line in the service, collecting its stdout; null when it fails or is too slow. */
async function inService(env: BrainEnv, io: HookIo, argv: string[], deadline: Promise<void>, log: (m: string) => void): Promise<string | null> {
  const { forward } = await import('../service/client.js')
  const out: Buffer[] = []
  const err: Buffer[] = []
  const sink = (into: Buffer[]): Writable =>
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        into.push(chunk)
        cb()
      },
    })
  const interrupt = new AbortController()
  const stdin = new PassThrough()
  stdin.end()
  const forwardedEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
  const run = forward({
    argv,
    cwd: io.cwd,
    env: forwardedEnv,
    home: brainHome(env),
    stdin,
    stdout: sink(out),
    stderr: sink(err),
    terminal: { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false, stdoutColumns: null, stderrColumns: null, colorDepth: 1 },
    interrupt: interrupt.signal,
  }).then(
    (code) => ({ code }),
    (e: unknown) => ({ code: -1, error: e instanceof Error ? e.message : String(e) }),
  )
  const outcome = await Promise.race([run, deadline.then(() => null)])
  if (outcome === null) {
    interrupt.abort()
    log(`${argv[0]}: the brain service did not answer in time`)
    return null
  }
  if (outcome.code !== 0) {
    const why = 'error' in outcome ? outcome.error : firstLine(Buffer.concat(err).toString('utf8')) || firstLine(Buffer.concat(out).toString('utf8'))
    log(`${argv[0]}: exit ${outcome.code}: ${why}`)
    return null
  }
  return Buffer.concat(out).toString('utf8')
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? ''
}

function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The command line a hook's action runs in the service. */
function serviceArgv(spec: HookSpec, input: HookInput): string[] | null {
  if (spec.action === 'orient') return ['stats', '--json']
  if (spec.action === 'recall') {
    if (input.prompt === null) return null
    return ['recall', '--json', ...(input.sessionId === null ? [] : ['--session', input.sessionId]), '--', input.prompt]
  }
  if (input.transcriptPath === null) return null
  const data = { transcript_path: input.transcriptPath, session_id: input.sessionId, harness: spec.harness, cwd: input.cwd, event: spec.event }
  // One capture per state of the transcript: a second Stop with nothing new is the same job.
  const key = `${spec.harness}:${input.sessionId ?? input.transcriptPath}:${transcriptSize(input.transcriptPath)}`
  return ['jobs', 'submit', 'capture_transcript', '--data', JSON.stringify(data), '--idempotency-key', key.slice(0, 200), '--json']
}

function transcriptSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

async function answer(spec: HookSpec, input: HookInput, env: BrainEnv, io: HookIo, deadline: Promise<void>, log: (m: string) => void): Promise<string> {
  const argv = serviceArgv(spec, input)
  if (argv === null) return ''
  const out = await inService(env, io, argv, deadline, log)
  if (spec.action === 'recall') return hookReply(spec.eventName, recallContext(parseJson(out)))
  if (spec.action === 'orient') return hookReply(spec.eventName, orientationText(parseJson(out)))
  return ''
}

/** Runs a hook; always resolves with 0, the only exit code a hook of brain's gives. */
export async function runHook(args: readonly string[], env: BrainEnv, io: HookIo): Promise<number> {
  const log = (message: string): void => logLine(env, `hook ${args.join(' ')}: ${message}`)
  try {
    const spec = hookSpec(args[0], args[1])
    if (spec === null) {
      log('unknown harness or event')
      return 0
    }
    if (!brainExists(env)) return 0
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, hookTimeoutMs(env))
      timer.unref()
    })
    const raw = await readAll(io.stdin, deadline)
    const input = raw === null ? null : parseHookInput(raw)
    if (input === null) {
      log('stdin is not a hook JSON object')
      return 0
    }
    const reply = await answer(spec, input, env, io, deadline, log)
    clearTimeout(timer)
    if (reply !== '') io.stdout.write(reply)
  } catch (err) {
    log(`failed: ${err instanceof Error ? err.message : String(err)}`)
  }
  return 0
}
