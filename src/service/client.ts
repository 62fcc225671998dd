import { chmodSync, closeSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import type { Socket } from 'node:net'
import { dirname, join } from 'node:path'
import { packageRoot } from '../util/package-root.js'
import { longRunningNodeArgs } from '../util/background-threads.js'
import { currentIdentity } from './identity.js'
import { servicePaths, type ServicePaths } from './paths.js'
import { Frame, encodeFrame, type Hello, type Identity, type Reply, type TerminalFacts } from './protocol.js'
import { request, tryConnect } from './call.js'
import { processAlive } from '../util/process-alive.js'
import { BrainError } from '../errors/index.js'

const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 15_000

export interface ForwardOptions {
  argv: string[]
  cwd: string
  env: Record<string, string>
  home: string
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  terminal: TerminalFacts
  /** Who this client is; tests pass another build to provoke a skew. */
  identity?: Identity
  /** Fires when the user interrupts; the command in the service is aborted. */
  interrupt?: AbortSignal
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the service in the background, its output going to the log, never to this terminal. */
function spawnService(paths: ServicePaths, env: Record<string, string>): { exited: () => boolean; pid: number } {
  mkdirSync(dirname(paths.log), { recursive: true, mode: 0o700 })
  chmodSync(paths.home, 0o700)
  const log = openSync(paths.log, 'a', 0o600)
  let exited = false
  try {
    // Loaded here, not with this module: every relayed command loads it, and only the one that finds
    // no service starts one.
    const { spawn } = process.getBuiltinModule('node:child_process')
    const child = spawn(process.execPath, [...longRunningNodeArgs(env), join(packageRoot(), 'bin', 'brain.js'), 'service', 'start', '--foreground'], {
      cwd: paths.home,
      env,
      detached: true,
      stdio: ['ignore', log, log],
    })
    child.once('exit', () => (exited = true))
    child.once('error', () => (exited = true))
    child.unref()
    return { exited: () => exited, pid: child.pid ?? -1 }
  } finally {
    closeSync(log)
  }
}

/** Starts the service for the next client and returns at once: nobody waits for it to listen. */
export function startServiceDetached(home: string, env: Record<string, string>): number {
  return spawnService(servicePaths(home), env).pid
}

/** Connects to the running service, starting one when none answers. */
export async function connectOrStart(paths: ServicePaths, env: Record<string, string>): Promise<Socket> {
  const existing = await tryConnect(paths.socket)
  if (existing) return existing
  let child = spawnService(paths, env)
  let restarted = false
  const deadline = Date.now() + START_TIMEOUT_MS
  let exitedAt: number | null = null
  while (Date.now() < deadline) {
    await sleep(20)
    const socket = await tryConnect(paths.socket)
    if (socket) return socket
    if (!child.exited()) continue
    // Right after a crash the old service may not have finished exiting, and the new one
    // refuses its lock: wait for the old one to go, then start once more.
    const holder = lockHolder(paths.lock)
    if (!restarted && holder !== null && holder !== child.pid && processAlive(holder)) {
      // Or the holder is a service that lost its socket file and is listening again.
      const answered = await connectWhileAlive(paths.socket, holder, deadline)
      if (answered) return answered
      child = spawnService(paths, env)
      restarted = true
      exitedAt = null
      continue
    }
    // A child that exited may have lost a start race to another client's service, which
    // answers shortly; give that one a moment before giving up.
    exitedAt ??= Date.now()
    if (Date.now() - exitedAt > 3000) break
  }
  throw new BrainError('service_not_started', 'The brain service did not start.', {
    hint: `See ${paths.log}; or run the command in this process with BRAIN_NO_SERVICE=1.`,
  })
}

/** Waits for `pid` to exit, or for a service to answer on `socketPath` meanwhile (that socket). */
async function connectWhileAlive(socketPath: string, pid: number, deadline: number): Promise<Socket | null> {
  while (processAlive(pid) && Date.now() < deadline) {
    await sleep(50)
    const socket = await tryConnect(socketPath)
    if (socket) return socket
  }
  return null
}

function lockHolder(path: string): number | null {
  try {
    const pid = (JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown }).pid
    return typeof pid === 'number' ? pid : null
  } catch {
    return null
  }
}

/** Waits until the service `pid` has let go of the home's service lock (or died), or gives up. */
async function waitForRelease(paths: ServicePaths, pid: number, timeoutMs = STOP_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (lockHolder(paths.lock) === pid && processAlive(pid)) {
    if (Date.now() > deadline) return false
    await sleep(25)
  }
  return true
}

/** Waits until a process has exited, or gives up. */
export async function waitForExit(pid: number, timeoutMs = STOP_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (processAlive(pid)) {
    if (Date.now() > deadline) return false
    await sleep(25)
  }
  return true
}

function pumpStdin(stdin: NodeJS.ReadableStream, socket: Socket): () => void {
  const onData = (chunk: Buffer | string): void => {
    if (!socket.destroyed) socket.write(encodeFrame(Frame.stdin, typeof chunk === 'string' ? Buffer.from(chunk) : chunk))
  }
  const onEnd = (): void => {
    if (!socket.destroyed) socket.write(encodeFrame(Frame.stdinEnd))
  }
  stdin.on('data', onData)
  stdin.once('end', onEnd)
  return () => {
    stdin.off('data', onData)
    stdin.off('end', onEnd)
    stdin.pause()
  }
}

type Outcome = { code: number } | { reply: Reply } | { lost: true }

async function runOnce(options: ForwardOptions, paths: ServicePaths, identity: Identity): Promise<Outcome> {
  const socket = await connectOrStart(paths, options.env)
  let outcome: Outcome = { lost: true }
  const onInterrupt = (): void => {
    if (!socket.destroyed) socket.write(encodeFrame(Frame.interrupt))
  }
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true })
  const hello: Hello = { kind: 'run', argv: options.argv, cwd: options.cwd, env: options.env, terminal: options.terminal, ...identity }
  let stopStdin: () => void = () => undefined
  const finished = request(socket, hello, (type, payload) => {
    if (type === Frame.stdout || type === Frame.stderr) {
      const target = type === Frame.stdout ? options.stdout : options.stderr
      if (!target.write(payload)) {
        socket.pause()
        target.once('drain', () => socket.resume())
      }
    } else if (type === Frame.accepted) {
      // Only a service that runs the command gets stdin: one that turns the client away must
      // not consume it, since the next service needs it.
      stopStdin = pumpStdin(options.stdin, socket)
    } else if (type === Frame.exit) outcome = { code: (JSON.parse(payload.toString('utf8')) as { code: number }).code }
    else if (type === Frame.reply) outcome = { reply: JSON.parse(payload.toString('utf8')) as Reply }
  })
  await finished
  stopStdin()
  options.interrupt?.removeEventListener('abort', onInterrupt)
  return outcome
}

/**
 * Runs a command line in the brain's resident service with this process's streams, and
 * returns its exit code. A service of another build is restarted when idle, refused when busy.
 */
export async function forward(options: ForwardOptions): Promise<number> {
  const paths = servicePaths(options.home)
  const identity = options.identity ?? currentIdentity()
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await runOnce(options, paths, identity)
    if ('code' in outcome) return outcome.code
    if ('lost' in outcome) {
      if (options.interrupt?.aborted) return 130
      options.stderr.write(`brain: the brain service closed the connection before the command finished; see ${paths.log}\n`)
      return 1
    }
    const reply = outcome.reply
    if (reply.kind !== 'skew') break
    if (!reply.restarting) {
      options.stderr.write(`brain: ${reply.message}\n  hint: retry when it is idle, stop it with \`brain service stop\`, or run in-process with BRAIN_NO_SERVICE=1.\n`)
      return 1
    }
    await waitForRelease(paths, reply.pid)
  }
  options.stderr.write('brain: could not reach a brain service of this build.\n')
  return 1
}
