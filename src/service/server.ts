import { chmodSync, mkdirSync, unlinkSync, writeFileSync, readFileSync, lstatSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { dirname } from 'node:path'
import type { Config } from '../config/index.js'
import { acquireFileLock, type FileLock, type SqlExecutor } from '../db/index.js'
import { LockError, isBrainError } from '../errors/index.js'
import type { Logger } from '../util/index.js'
import { ServiceHost } from './host.js'
import { HookExchange, type AnswerHook } from './hook-exchange.js'
import { currentIdentity, sameIdentity } from './identity.js'
import { servicePaths, type ServicePaths } from './paths.js'
import { Frame, FrameDecoder, encodeJson, type CallOutcome, type Hello, type Identity, type OperationCall, type Reply, type ServiceStatus } from './protocol.js'
import { QuietWork } from './quiet-work.js'
import { Session, type SessionDeps } from './session.js'
import type { BrainHost } from './command-context.js'

/** Runs one operation of the catalogue by name in the service's process, over its shared brains. */
export type CallOperation = (call: OperationCall, host: BrainHost, signal: AbortSignal) => Promise<unknown>

/** How long a new service waits for its first client even with a shorter idle timeout. */
const START_GRACE_MS = 10_000

export interface ServiceState {
  pid: number
  version: string
  build: string
  socket: string
  startedAt: string
}

/** How often a service checks that its socket file and state file are still its own. */
const PATHS_CHECK_MS = 2000

function socketInode(path: string): number | null {
  try {
    const stat = lstatSync(path)
    return stat.isSocket() ? stat.ino : null
  } catch {
    return null
  }
}

/** The directory a socket lives in must be the user's alone: the socket runs their commands. */
function preparePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
}

export function readServiceState(paths: ServicePaths): ServiceState | null {
  try {
    const state = JSON.parse(readFileSync(paths.state, 'utf8')) as Partial<ServiceState>
    return typeof state.pid === 'number' ? (state as ServiceState) : null
  } catch {
    return null
  }
}

/**
 * The resident service of one brain home: listens on the home's socket, runs forwarded
 * commands against shared open brains, and exits after an idle period.
 */
export class BrainService {
  readonly paths: ServicePaths
  readonly identity: Identity
  private readonly host: ServiceHost
  /** Start-up work left for a moment without commands. */
  private readonly quietWork: QuietWork
  private readonly sessions = new Set<Session>()
  /** Operation calls being answered now. */
  private calls = 0
  private readonly startedAt = new Date().toISOString()
  private server: Server | null = null
  private lock: FileLock | null = null
  private idleSince = Date.now()
  private idleTimer: NodeJS.Timeout | null = null
  private pathsTimer: NodeJS.Timeout | null = null
  private relistening = false
  /** The inode of the socket file this service listens on. */
  private socketInode: number | null = null
  private stopping: Promise<void> | null = null
  private resolveStopped!: () => void
  /** Settles once the service has shut down. */
  readonly stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve))

  private readonly runCli: SessionDeps['runCli']
  private readonly callOperation: CallOperation
  private readonly answerHook: AnswerHook
  private readonly warmHooks: (host: BrainHost) => Promise<void>

  /**
   * `runCli` runs one forwarded command line, `callOperation` one operation, `answerHook` one
   * agent hook; the CLI hands in its own, so neither imports the other.
   */
  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    options: { identity?: Identity; runCli?: SessionDeps['runCli']; callOperation?: CallOperation; answerHook?: AnswerHook; warmHooks?: (host: BrainHost) => Promise<void> } = {},
  ) {
    this.identity = options.identity ?? currentIdentity()
    this.runCli = options.runCli ?? (() => Promise.reject(new Error('this brain service was started without a command line to run')))
    this.callOperation = options.callOperation ?? (() => Promise.reject(new Error('this brain service was started without the operations to call')))
    // Without its own answerer, a service leaves every hook to the hook process.
    this.answerHook = options.answerHook ?? (() => Promise.resolve(null))
    this.warmHooks = options.warmHooks ?? (() => Promise.resolve())
    this.paths = servicePaths(config.home)
    this.quietWork = new QuietWork({
      quietForMs: () => (this.sessions.size > 0 || this.calls > 0 ? 0 : Date.now() - this.idleSince),
      onError: (err) => this.logger.warn(`warm-up: ${err instanceof Error ? err.message : String(err)}`),
    })
    this.host = new ServiceHost(config, logger, (run) => this.quietWork.add(run))
  }

  /** Takes the service lock, replaces a stale socket, and listens. */
  async start(): Promise<void> {
    preparePrivateDir(this.paths.home)
    preparePrivateDir(dirname(this.paths.socket))
    try {
      this.lock = acquireFileLock(this.paths.lock, `${this.paths.home} (service)`)
    } catch (err) {
      if (!(isBrainError(err) && err instanceof LockError)) throw err
      const running = readServiceState(this.paths)
      throw new LockError('service_running', `A brain service already runs for ${this.paths.home}${running ? ` (pid ${running.pid})` : ''}.`, {
        hint: 'Use it, or stop it first with `brain service stop`.',
      })
    }
    // Holding the lock, any socket file left behind belongs to a service that died.
    await this.listen()
    const state: ServiceState = { pid: process.pid, ...this.identity, socket: this.paths.socket, startedAt: this.startedAt }
    writeFileSync(this.paths.state, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 })
    this.watchIdle()
    this.watchPaths()
    this.logger.info(`service ${process.pid} listening on ${this.paths.socket} (version ${this.identity.version}, build ${this.identity.build})`)
  }

  /**
   * Opens the configured brain, so the first command is fast. Once the service is quiet (see
   * `QuietWork`), after its worker has started: when the brain holds embeddings, loads the
   * embedding model (a brain with none yet has nothing for a query to compare with: its first
   * import loads the model when it embeds, and the service saves a second of CPU); then runs the
   * agents' hooks once or more, so the first prompts after a start are answered as fast as later
   * ones.
   */
  async warmUp(): Promise<void> {
    try {
      const db = await this.host.database(this.config.engine)
      this.quietWork.add(async () => {
        if (this.config.embedding.provider !== 'local' || !(await holdsEmbeddings(db))) return
        const { activeEmbeddingProvider } = await import('../models/index.js')
        await (await activeEmbeddingProvider(db, this.config)).embed(['warm up'])
      })
      this.quietWork.add(async () => {
        await this.warmHooks(this.host)
        this.logger.info('warm')
      })
    } catch (err) {
      this.logger.warn(`warm-up: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  status(): ServiceStatus {
    return {
      pid: process.pid,
      ...this.identity,
      socket: this.paths.socket,
      startedAt: this.startedAt,
      clients: this.sessions.size + this.calls,
      runningJobs: this.host.runningJobs,
      idleTimeoutMs: this.config.service.idleTimeoutMs,
      brains: this.host.locations,
    }
  }

  get busy(): boolean {
    return this.sessions.size > 0 || this.calls > 0 || this.host.runningJobs > 0 || this.host.webAppUsedWithin(this.config.service.idleTimeoutMs)
  }

  /** Stops listening, ends running commands, stops the worker and closes the brains. */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.shutdown(reason)
    return this.stopping
  }

  private async shutdown(reason: string): Promise<void> {
    this.logger.info(`service ${process.pid} stopping: ${reason}`)
    if (this.idleTimer) clearInterval(this.idleTimer)
    if (this.pathsTimer) clearInterval(this.pathsTimer)
    const server = this.server
    this.server = null
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve()
    for (const session of this.sessions) session.abort('the brain service is stopping')
    // Not waited for: a warm-up under way ends with an error once the brain is closed.
    void this.quietWork.stop()
    await this.host.close()
    if (readServiceState(this.paths)?.pid === process.pid) {
      try {
        unlinkSync(this.paths.state)
      } catch {
        // Already gone.
      }
    }
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())])
    this.lock?.release()
    this.resolveStopped()
  }

  /** Listens on the home's socket path, replacing any socket file there. */
  private async listen(): Promise<void> {
    try {
      if (lstatSync(this.paths.socket).isSocket()) unlinkSync(this.paths.socket)
    } catch {
      // No socket file: nothing to take over.
    }
    const server = createServer((socket) => this.accept(socket))
    const previousMask = process.umask(0o177)
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(this.paths.socket, () => resolve())
      })
    } finally {
      process.umask(previousMask)
    }
    chmodSync(this.paths.socket, 0o600)
    this.server = server
    this.socketInode = socketInode(this.paths.socket)
  }

  /**
   * Keeps the service reachable, or ends it when its home is no longer its own. A home removed
   * and made again (`rm -rf ~/.brain`, `brain init`) gets a new service while the old one still
   * runs, with its database open at the same paths: the old one, whose state file is gone or
   * names another process, exits at once. A service whose socket file was removed (a stopping
   * service's listener unlinks its path, whoever's socket is there by then) listens again.
   */
  private watchPaths(): void {
    this.pathsTimer = setInterval(() => void this.checkPaths(), PATHS_CHECK_MS)
    this.pathsTimer.unref()
  }

  private async checkPaths(): Promise<void> {
    if (this.stopping !== null || this.server === null || this.relistening) return
    if (readServiceState(this.paths)?.pid !== process.pid) {
      // Leave without closing anything: the embedded database writes by path, and closing it
      // (or anything else this service would still write) could land in a new brain made at the
      // same paths. The locks and the state file are removed only by their owner, and a socket
      // is not unlinked at exit.
      this.logger.warn(`service ${process.pid} exits: its home ${this.paths.home} was removed or another service took it over`)
      process.exit(0)
    }
    if (socketInode(this.paths.socket) === this.socketInode) return
    this.relistening = true
    try {
      // Not waiting for the close: it comes only once every open session has ended, and those
      // keep running on their connections meanwhile.
      this.server.close()
      await this.listen()
      this.logger.warn(`service ${process.pid}: its socket ${this.paths.socket} was removed; listening again`)
    } catch (err) {
      this.logger.warn(`service ${process.pid}: could not listen again on ${this.paths.socket}: ${err instanceof Error ? err.message : String(err)}`)
    } finally {
      this.relistening = false
    }
  }

  private watchIdle(): void {
    const timeout = this.config.service.idleTimeoutMs
    if (timeout <= 0) return
    const started = Date.now()
    this.idleTimer = setInterval(
      () => {
        if (this.busy) this.idleSince = Date.now()
        // A service just started waits at least a while for the client that started it.
        else if (Date.now() - this.idleSince >= timeout && Date.now() - started >= Math.max(timeout, START_GRACE_MS)) void this.stop(`idle for ${timeout} ms`)
      },
      Math.max(100, Math.min(5000, Math.floor(timeout / 4))),
    )
    this.idleTimer.unref()
  }

  private accept(socket: Socket): void {
    let session: Session | HookExchange | null = null
    const decoder = new FrameDecoder((type, payload) => {
      if (session) return session.onFrame(type, payload)
      if (type !== Frame.hello) return socket.destroy()
      session = this.greet(socket, JSON.parse(payload.toString('utf8')) as Hello)
    })
    socket.on('data', (chunk: Buffer) => {
      try {
        decoder.push(chunk)
      } catch (err) {
        this.logger.warn(`bad client frame: ${String(err)}`)
        socket.destroy()
      }
    })
    socket.on('error', () => undefined)
  }

  private reply(socket: Socket, reply: Reply): void {
    socket.end(encodeJson(Frame.reply, reply))
  }

  /** Answers a status or stop request, refuses a different build, or starts a command, a call or a hook. */
  private greet(socket: Socket, hello: Hello): Session | HookExchange | null {
    if (hello.kind === 'status') {
      this.reply(socket, { kind: 'status', status: this.status() })
      return null
    }
    if (hello.kind === 'stop') {
      this.reply(socket, { kind: 'stopping', pid: process.pid })
      void this.stop('asked to stop')
      return null
    }
    if (!sameIdentity(hello, this.identity)) {
      const restarting = !this.busy && this.stopping === null
      const message = restarting
        ? `brain service ${process.pid} (build ${this.identity.build}) restarts for this client (build ${hello.build}).`
        : `The brain service (pid ${process.pid}) runs brain ${this.identity.version} build ${this.identity.build}, but this brain is ${hello.version} build ${hello.build}, and the service is busy (${this.sessions.size} clients, ${this.host.runningJobs} running jobs).`
      this.reply(socket, { kind: 'skew', restarting, pid: process.pid, message })
      if (restarting) void this.stop('a client of another build arrived')
      return null
    }
    if (this.stopping) {
      this.reply(socket, { kind: 'skew', restarting: true, pid: process.pid, message: 'The brain service is stopping.' })
      return null
    }
    if (hello.kind === 'call') {
      this.runCall(socket, hello)
      return null
    }
    if (hello.kind === 'hook') return this.runHook(socket, hello)
    return this.runSession(socket, hello)
  }

  /** Answers one agent hook; it counts as a call while it runs. */
  private runHook(socket: Socket, hello: Extract<Hello, { kind: 'hook' }>): HookExchange {
    const exchange = new HookExchange(socket, { args: hello.args, cwd: hello.cwd, env: hello.env }, { host: this.host, answerHook: this.answerHook })
    this.calls += 1
    this.idleSince = Date.now()
    void exchange.run().finally(() => {
      this.calls -= 1
      this.idleSince = Date.now()
    })
    return exchange
  }

  /** Answers one operation call with its result or its error, as one reply frame. */
  private runCall(socket: Socket, call: OperationCall): void {
    const controller = new AbortController()
    socket.once('close', () => controller.abort(new Error('the client went away')))
    this.calls += 1
    this.idleSince = Date.now()
    void this.callOperation({ operation: call.operation, args: call.args, cwd: call.cwd, env: call.env }, this.host, controller.signal)
      .then(
        (result): CallOutcome => ({ ok: true, result }),
        (err: unknown): CallOutcome => ({
          ok: false,
          error: { code: isBrainError(err) ? err.code : 'internal_error', message: err instanceof Error ? err.message : String(err) },
        }),
      )
      .then((outcome) => {
        if (!socket.destroyed) this.reply(socket, { kind: 'result', ...outcome })
      })
      .finally(() => {
        this.calls -= 1
        this.idleSince = Date.now()
      })
  }

  private runSession(socket: Socket, hello: Extract<Hello, { kind: 'run' }>): Session {
    const session = new Session(socket, hello, { host: this.host, runCli: this.runCli })
    this.sessions.add(session)
    this.idleSince = Date.now()
    void session.run().finally(() => {
      this.sessions.delete(session)
      this.idleSince = Date.now()
    })
    return session
  }
}

async function holdsEmbeddings(db: SqlExecutor): Promise<boolean> {
  const { rows } = await db.query<{ some: boolean }>('SELECT EXISTS (SELECT 1 FROM content_chunks WHERE embedding IS NOT NULL) AS some')
  return rows[0]?.some === true
}
