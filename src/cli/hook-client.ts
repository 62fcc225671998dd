/**
 * `brain hook …` as agents run it on every prompt. The build bundles this module with what it
 * imports into one CommonJS file (`dist/bundle/hook-client.cjs`, scripts/bundle.mjs) that loads
 * only node's socket and file modules: node starts it without its ES-module loader, which is most
 * of a warm hook's cost. It hands the hook to the resident service (which answers it over its
 * open brain) and prints the answer; when no service takes it, it loads the ES-module hook, which
 * answers in this process and starts the service.
 */
import { appendFileSync, existsSync, fstatSync, mkdirSync, readSync, writeSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { processEnv } from '../config/env.js'
import { brainHome, hookTimeoutMs } from '../config/home.js'
import { currentIdentity } from '../service/identity.js'
import { servicePaths } from '../service/paths.js'
import { encodeFrame, encodeJson, FrameDecoder, Frame, type Hello, type HookAnswer, type Reply } from '../service/protocol.js'

/** Hook JSON beyond this is not a hook's; it is dropped unread. */
const MAX_STDIN_BYTES = 4 * 1024 * 1024

/** Milliseconds since this process started, without loading the performance timing module. */
function sinceStart(): number {
  return process.uptime() * 1000
}

/**
 * Reads stdin to its end; null when it is too long or unreadable. An agent has written the whole
 * hook input and closed its end before the hook runs, so a pipe or socket on fd 0 usually holds
 * all of it: that is read at once, without waiting on the event loop; whatever is not there yet is
 * read through the stream. (A read of fd 0 on a worker thread that never returns would keep the
 * process from exiting, so there is none.)
 */
function readInput(): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  const add = (chunk: Buffer): boolean => {
    size += chunk.length
    if (size > MAX_STDIN_BYTES) return false
    chunks.push(chunk)
    return true
  }
  // The stream puts a pipe or socket in non-blocking mode as it opens it: from then on a read of
  // fd 0 answers at once, with bytes, with the end (0), or with EAGAIN when nothing is there yet.
  const stdin = process.stdin
  if (drainable()) {
    const buffer = Buffer.allocUnsafe(64 * 1024)
    try {
      for (;;) {
        const n = readSync(0, buffer, 0, buffer.length, null)
        if (n === 0) return Promise.resolve(Buffer.concat(chunks).toString('utf8'))
        if (!add(Buffer.from(buffer.subarray(0, n)))) return Promise.resolve(null)
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return Promise.resolve(null)
    }
  }
  return new Promise((settle) => {
    stdin.on('data', (chunk: Buffer) => {
      if (!add(chunk)) settle(null)
    })
    stdin.once('end', () => settle(Buffer.concat(chunks).toString('utf8')))
    stdin.once('error', () => settle(null))
  })
}

/** Whether fd 0 is a pipe or a socket, which the stream has made non-blocking. */
function drainable(): boolean {
  try {
    const stat = fstatSync(0)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}

function print(text: string): void {
  if (text === '') return
  try {
    writeSync(1, text)
  } catch {
    process.stdout.write(text)
  }
}

function logLine(home: string, args: readonly string[], note: string, started: number): void {
  // A hook never makes a brain home (hook.ts).
  if (!existsSync(home)) return
  const line = `${new Date().toISOString()} hook ${args.join(' ')}: ${note} (${Math.round(sinceStart() - started)} ms)\n`
  const log = join(home, 'logs', 'hooks.log')
  try {
    try {
      appendFileSync(log, line, { mode: 0o600 })
    } catch {
      // The first hook of a home: its logs folder is made once.
      mkdirSync(join(home, 'logs'), { recursive: true, mode: 0o700 })
      appendFileSync(log, line, { mode: 0o600 })
    }
  } catch {
    // Logging is best effort; the hook still must not fail.
  }
}

/** How the exchange with the service ended. */
type Outcome = { answer: HookAnswer } | { elsewhere: true } | { late: true }

function outcomeOf(reply: Reply): Outcome {
  return reply.kind === 'hook' ? { answer: { stdout: reply.stdout, note: reply.note } } : { elsewhere: true }
}

/**
 * Asks the service on `socket` to answer the hook: the hello now, the input as soon as it is read,
 * unasked, so the answer costs one round trip.
 */
function exchange(socket: Socket, hello: Hello, input: Promise<string | null>, deadline: Promise<void>): Promise<Outcome> {
  return new Promise((settle) => {
    const decoder = new FrameDecoder((type, payload) => {
      // The reply is the last frame: the answer is taken at once, not after the socket closes.
      if (type === Frame.reply) settle(outcomeOf(JSON.parse(payload.toString('utf8')) as Reply))
    })
    socket.on('data', (chunk: Buffer) => {
      try {
        decoder.push(chunk)
      } catch {
        // Not a service this client can read: the hook is answered as if none listened.
        settle({ elsewhere: true })
      }
    })
    socket.once('close', () => settle({ elsewhere: true }))
    socket.on('error', () => undefined)
    void deadline.then(() => settle({ late: true }))
    socket.write(encodeJson(Frame.hello, hello))
    void input.then((raw) => {
      if (!socket.destroyed) socket.write(encodeFrame(Frame.stdin, raw ?? ''))
    })
  })
}

function tryConnect(path: string): Promise<Socket | null> {
  return new Promise((settle) => {
    const socket = connect(path)
    socket.once('connect', () => settle(socket))
    socket.once('error', () => settle(null))
  })
}

function definedEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value
  return out
}

/**
 * The ES-module hook beside this module: in the bundle the bundled one, in the compiled build the
 * compiled one. Named by its place, so the bundler leaves it out of this file.
 */
function hookModule(): Promise<typeof import('./hook.js')> {
  return import(new URL('./hook.js', import.meta.url).href) as Promise<typeof import('./hook.js')>
}

/** Runs `brain hook …` (process.argv) and exits; anything else, or a request for help, goes to the whole CLI. */
export async function main(): Promise<void> {
  const started = sinceStart()
  const argv = process.argv.slice(2)
  if (argv[0] !== 'hook' || argv.includes('--help') || argv.includes('-h') || process.platform === 'win32') {
    await import(new URL('./entry.js', import.meta.url).href)
    return
  }
  // The environment is the hook's own: this entry runs before any module that could hand it in.
  const env = processEnv()
  const args = argv.slice(1)
  const home = brainHome(env)
  const cwd = process.cwd()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<void>((settle) => (timer = setTimeout(settle, hookTimeoutMs(env))))
  // The connection is asked for first: the service accepts it while this process reads its input.
  const connecting = tryConnect(servicePaths(home).socket)
  const input = Promise.race([readInput(), deadline.then(() => null)])
  let outcome: Outcome = { elsewhere: true }
  try {
    // Made while the connection is being accepted.
    const hello: Hello = { kind: 'hook', args, cwd, env: definedEnv(env), ...currentIdentity() }
    const socket = await connecting
    if (socket !== null) {
      outcome = await exchange(socket, hello, input, deadline)
      socket.destroy()
    }
  } catch {
    // Whatever this file cannot do (an install without its VERSION), the ES-module hook does.
    outcome = { elsewhere: true }
  }
  if ('answer' in outcome) {
    print(outcome.answer.stdout)
    if (outcome.answer.note !== null) logLine(home, args, outcome.answer.note, started)
  } else if ('late' in outcome) {
    const { unanswered } = await hookModule()
    const { note } = await unanswered(args, env, await input, cwd)
    if (note !== null) logLine(home, args, note, started)
  } else {
    // No service took it: the hook answers in this process, with the input read so far.
    clearTimeout(timer)
    const [{ runHook }, { Readable }] = await Promise.all([hookModule(), import('node:stream')])
    const stdin = Readable.from(
      (async function* () {
        const raw = await input
        if (raw !== null && raw !== '') yield Buffer.from(raw, 'utf8')
      })(),
    )
    // The hook's own clock is the performance timer's, which starts with the process as well.
    await runHook(args, env, { stdin, stdout: process.stdout, cwd }, performance.now() - (sinceStart() - started))
    await new Promise<void>((flushed) => process.stdout.write('', () => flushed()))
  }
  // The read of stdin may still be pending: the hook is done.
  process.exit(0)
}
