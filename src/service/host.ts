import type { AttachedWorker, BrainHost } from './command-context.js'
import type { Config, EngineConfig } from '../config/index.js'
import { engineKey, type Database } from '../db/index.js'
import type { Logger } from '../util/index.js'
import type { Worker } from '../queue/worker.js'
import type { RunningWebApp } from './web-app.js'

/** How long after a failed start of the worker a command may try again. */
const WORKER_RETRY_MS = 5000

interface OpenBrain {
  db: Database
  worker: Worker | null
  workerStarting: Promise<void> | null
  /** Starts the worker now, while its start still waits for a quiet moment; else null. */
  startWorkerNow: (() => void) | null
  /** When the last start of the worker failed, or null. */
  workerFailedAt: number | null
  /** `jobs work` commands attached to the worker now. */
  attached: number
}

/**
 * The brains the service keeps open, shared by every command it runs. An engine that only
 * one process can open also gets the service's queue worker, so commands submit jobs and wait
 * exactly as they do on the server engine with a live worker.
 */
export class ServiceHost implements BrainHost {
  private readonly brains = new Map<string, Promise<OpenBrain>>()
  private readonly settled: OpenBrain[] = []
  private closed = false
  private web: Promise<RunningWebApp> | null = null
  private runningWeb: RunningWebApp | null = null

  /**
   * `later` runs start-up work once the service is quiet (see `QuietWork`); the worker of a brain
   * opened here starts through it, and at once when a command asks for it.
   */
  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly later: (run: () => Promise<void>) => void = (run) => void run(),
    private readonly workerConcurrency = 1,
  ) {}

  async database(engine: EngineConfig, onRetry?: (attempt: number, delayMs: number) => void): Promise<Database> {
    if (this.closed) throw new Error('the brain service is stopping')
    const key = engineKey(engine)
    let opening = this.brains.get(key)
    if (!opening) {
      opening = this.open(engine, onRetry)
      this.brains.set(key, opening)
      // A failed open (the brain is locked by an in-process command, the server is down) is
      // not kept: the next command tries again.
      opening.catch(() => this.brains.delete(key))
    }
    const brain = await opening
    this.retryWorker(brain)
    return brain.db
  }

  async workerOn(db: Database): Promise<{ pid: number; id: string; concurrency: number } | null> {
    const brain = this.settled.find((b) => b.db === db)
    brain?.startWorkerNow?.()
    await brain?.workerStarting
    return brain?.worker ? { pid: process.pid, id: brain.worker.id, concurrency: this.workerConcurrency } : null
  }

  async attachWorker(db: Database, options: { autopilotCron: string | null }): Promise<AttachedWorker | null> {
    const brain = this.settled.find((b) => b.db === db)
    brain?.startWorkerNow?.()
    await brain?.workerStarting
    const worker = brain?.worker
    if (!brain || !worker) return null
    // The latest attached command's schedule wins; the last one to leave removes it, since the
    // service on its own runs no autopilot.
    brain.attached += 1
    await worker.setAutopilotCron(options.autopilotCron)
    let detached = false
    return {
      pid: process.pid,
      id: worker.id,
      concurrency: this.workerConcurrency,
      detach: async () => {
        if (detached) return
        detached = true
        brain.attached -= 1
        if (brain.attached === 0 && !this.closed) await worker.setAutopilotCron(null).catch((err: unknown) => this.logger.warn(`autopilot schedule: ${String(err)}`))
      },
    }
  }

  async webApp(db: Database, options: { port: number; version: string }): Promise<{ base: string; signInUrl: string }> {
    if (this.closed) throw new Error('the brain service is stopping')
    if (!this.web) {
      const { startWebApp } = await import('./web-app.js')
      this.web = startWebApp(db, this.config, this.logger, options)
      this.web.catch(() => (this.web = null))
    }
    const web = await this.web
    this.runningWeb = web
    return { base: web.base, signInUrl: web.signInUrl() }
  }

  /** Whether the web app answered a request in the last `ms` milliseconds. */
  webAppUsedWithin(ms: number): boolean {
    return this.runningWeb !== null && Date.now() - this.runningWeb.lastRequestAt < ms
  }

  /** Jobs the service's workers are running now. */
  get runningJobs(): number {
    let count = 0
    for (const brain of this.settled) count += brain.worker?.inFlightCount ?? 0
    return count
  }

  get locations(): string[] {
    return this.settled.map((b) => b.db.location)
  }

  /** Stops the workers (their jobs go back to the queue) and closes every brain. */
  async close(): Promise<void> {
    this.closed = true
    const web = await this.web?.catch(() => null)
    await web?.close().catch((err: unknown) => this.logger.warn(`web app close: ${String(err)}`))
    const brains = await Promise.allSettled([...this.brains.values()])
    this.brains.clear()
    this.settled.length = 0
    for (const result of brains) {
      if (result.status !== 'fulfilled') continue
      await result.value.workerStarting
      await result.value.worker?.stop().catch((err: unknown) => this.logger.warn(`worker stop: ${String(err)}`))
      await result.value.db.close().catch((err: unknown) => this.logger.warn(`close: ${String(err)}`))
    }
  }

  private async open(engine: EngineConfig, onRetry?: (attempt: number, delayMs: number) => void): Promise<OpenBrain> {
    const { openDatabase } = await import('../db/open.js')
    const db = await openDatabase(engine, {
      onRetry,
      onBufferPoolGrown: (bytes) => this.logger.info(`${engine.dataDir}: the brain outgrew its buffer pool; the engine reopened with ${Math.round(bytes / 1048576)} MiB`),
    })
    if (this.closed) {
      // The service began stopping while this brain opened: it must not stay open behind it.
      await db.close()
      throw new Error('the brain service is stopping')
    }
    this.logger.info(`opened ${db.location}`)
    const brain: OpenBrain = { db, worker: null, workerStarting: null, startWorkerNow: null, workerFailedAt: null, attached: 0 }
    this.settled.push(brain)
    if (!db.capabilities.multiProcess) this.deferWorker(brain)
    return brain
  }

  /**
   * The worker's start (its modules, the orphan rescue, pg-boss's tables) costs the one thread a
   * few hundred milliseconds, which the command that opened the brain need not share. A job a
   * command submits meanwhile waits in the queue, and a command waiting for its job runs it
   * itself, as it does while the worker starts.
   */
  private deferWorker(brain: OpenBrain): void {
    const start = (): void => {
      if (brain.startWorkerNow !== start) return
      brain.startWorkerNow = null
      if (!this.closed) this.launchWorker(brain)
    }
    brain.startWorkerNow = start
    this.later(async () => {
      start()
      await brain.workerStarting
    })
  }

  /**
   * The first command need not wait for the worker (pg-boss start-up): until it runs, a command
   * waiting for its job runs the job itself, as on an engine without a worker.
   */
  private launchWorker(brain: OpenBrain): void {
    brain.workerFailedAt = null
    brain.workerStarting = this.startWorker(brain.db).then(
      (worker) => {
        brain.worker = worker
        this.logger.info(`worker ${worker.id} runs on ${brain.db.location}`)
      },
      (err: unknown) => {
        brain.workerFailedAt = Date.now()
        this.logger.error(`worker on ${brain.db.location} did not start: ${err instanceof Error ? err.message : String(err)}`)
      },
    )
  }

  /** A worker that could not start (the disk was full, say) is tried again by a later command. */
  private retryWorker(brain: OpenBrain): void {
    if (this.closed || brain.workerFailedAt === null || Date.now() - brain.workerFailedAt < WORKER_RETRY_MS) return
    this.launchWorker(brain)
  }

  private async startWorker(db: Database): Promise<Worker> {
    const { openQueue, Worker } = await import('../queue/index.js')
    // Opening the queue first returns jobs left active by a service that died to the queue,
    // before this worker starts claiming.
    const queue = await openQueue({ db, config: this.config, logger: this.logger })
    await queue.close()
    const worker = new Worker({ db, config: this.config, logger: this.logger, concurrency: this.workerConcurrency, autopilotCron: null })
    await worker.start()
    return worker
  }
}
