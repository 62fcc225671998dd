import { randomUUID } from 'node:crypto'
import type { Config } from '../config/index.js'
import { bookkeepingOf, type Database } from '../db/index.js'
import type { Logger } from '../util/index.js'
import { fetchJobs, type ClaimedJob } from './boss-sql.js'
import { JobCancelledError, WorkerShutdownError } from './errors.js'
import { executeClaimed, type ExecutionDeps } from './execute.js'
import { executionDeps } from './facade.js'
import type { RunningJob, Timers } from './run-job.js'
import { MAX_BATCH, type QueueTimings } from './settings.js'
import { deregister, heartbeat, type WorkerRegistration } from './sql/workers.js'
import { JOB_NAMES, type JobName } from './types.js'
import { rescue } from './wait.js'
import { registerLocalWorker } from './local-workers.js'
import { startBossRuntime, type BossRuntime } from './boss-runtime.js'
import { MemoryWatchdog } from './memory-watchdog.js'
import type { HandlerResolver } from './handler.js'

export interface WorkerOptions {
  db: Database
  config: Config
  logger: Logger
  concurrency?: number
  names?: readonly JobName[]
  resolver?: HandlerResolver
  timings?: Partial<QueueTimings>
  timers?: Timers
  /** RSS limit in MB; null (a bare `jobs work`) means no memory watchdog. */
  maxRssMb?: number | null
  sampleRss?: () => Promise<number>
  memoryCheckIntervalMs?: number
  /** Run pg-boss's maintenance and cron in this process (default true). */
  bossRuntime?: boolean
  /** Cron expression of the recurring autopilot cycle; null removes the schedule. */
  autopilotCron?: string | null
}

/** Why a worker stopped: asked to, or its memory watchdog fired. */
type StopReason = 'requested' | 'memory'

interface InFlight {
  running: RunningJob | null
  done: Promise<void>
}

interface WorkerCounters {
  completed: number
  failed: number
  evicted: number
  requeued: number
}

/**
 * The worker: claims jobs in batches (pg-boss's SKIP LOCKED claim), runs each under its timeout
 * with an abort signal, evicts handlers that ignore the abort, records outcomes in batches, and
 * beats a heartbeat listing what it holds. It wakes on NOTIFY (or an in-process signal) instead
 * of sleeping out a poll interval, and rides out database outages.
 */
export class Worker {
  readonly id = randomUUID()
  readonly counters: WorkerCounters = { completed: 0, failed: 0, evicted: 0, requeued: 0 }
  private readonly deps: ExecutionDeps
  private readonly registration: WorkerRegistration
  private readonly concurrency: number
  private readonly inFlight = new Map<string, InFlight>()
  private readonly pendingNames = new Set<JobName>()
  private fullScan = true
  private cursor = 0
  private stopping = false
  private wakeUp: () => void = () => undefined
  private loopDone: Promise<void> = Promise.resolve()
  private beatTimer: NodeJS.Timeout | null = null
  private unsubscribe: (() => Promise<void>) | null = null
  private boss: BossRuntime | null = null
  private watchdog: MemoryWatchdog | null = null
  private dbHealthy = true
  private stopPromise: Promise<void> | null = null
  private unregisterLocal: () => void = () => undefined
  private resolveDone!: (reason: StopReason) => void
  /** Settles when the worker has stopped, with the reason. */
  readonly done = new Promise<StopReason>((resolve) => (this.resolveDone = resolve))

  constructor(private readonly options: WorkerOptions) {
    this.deps = executionDeps(options, { retryWrites: true })
    this.concurrency = Math.max(1, options.concurrency ?? 1)
    this.registration = { id: this.id, kind: 'worker', names: options.names ?? JOB_NAMES, concurrency: this.concurrency }
  }

  get inFlightCount(): number {
    return this.inFlight.size
  }

  /**
   * Registers, listens and starts claiming. A start that fails part way (a full disk refuses the
   * pg-boss set-up, say) is undone before it throws: a worker left registered but not claiming
   * would make every command of this process wait for it instead of running its job itself.
   */
  async start(): Promise<void> {
    try {
      await this.begin()
    } catch (err) {
      await this.stop().catch(() => undefined)
      throw err
    }
  }

  private async begin(): Promise<void> {
    await heartbeat(bookkeepingOf(this.deps.db), this.registration, [])
    this.unregisterLocal = registerLocalWorker(this.deps.db, this.id, this.registration.names)
    this.unsubscribe = await this.deps.signals.subscribe((event) => {
      if (event.e === 'new' && this.registration.names.includes(event.name as JobName)) {
        this.pendingNames.add(event.name as JobName)
        this.wakeUp()
      } else if (event.e === 'cancel') {
        this.inFlight.get(event.id)?.running?.abort(new JobCancelledError('job_cancelled', 'The job was cancelled while it ran.'))
      }
    })
    await rescue(this.deps)
    this.beatTimer = setInterval(() => void this.beat(), this.deps.timings.heartbeatMs)
    if (this.options.maxRssMb != null) {
      this.watchdog = new MemoryWatchdog({
        thresholdMb: this.options.maxRssMb,
        intervalMs: this.options.memoryCheckIntervalMs,
        sample: this.options.sampleRss,
        logger: this.deps.logger,
        onExceeded: () => void this.stop('memory'),
      })
      this.watchdog.start()
    }
    if (this.options.bossRuntime !== false) {
      this.boss = await startBossRuntime(bookkeepingOf(this.deps.db), this.deps.logger, { autopilotCron: this.options.autopilotCron ?? null, timings: this.deps.timings })
    }
    this.loopDone = this.loop()
  }

  /** Replaces the recurring autopilot schedule of a running worker (null removes it). */
  async setAutopilotCron(cron: string | null): Promise<void> {
    await this.boss?.setAutopilotCron(cron)
  }

  /** Stops claiming, aborts in-flight jobs (they go back to the queue), and deregisters. */
  stop(reason: StopReason = 'requested'): Promise<void> {
    this.stopPromise ??= this.shutdown(reason)
    return this.stopPromise
  }

  private async shutdown(reason: StopReason): Promise<void> {
    this.stopping = true
    this.unregisterLocal()
    this.wakeUp()
    this.watchdog?.stop()
    if (this.beatTimer) clearInterval(this.beatTimer)
    // Abort signals fire before anything stops, so handlers (and shell children) wind down first.
    const shutdownError = new WorkerShutdownError('worker_shutdown', 'The worker shut down while the job ran; it goes back to the queue.', {
      penalize: reason === 'memory',
    })
    for (const entry of this.inFlight.values()) entry.running?.abort(shutdownError)
    await this.loopDone
    await Promise.all([...this.inFlight.values()].map((e) => e.done))
    // Outcomes the database still refuses after a liveness period are left to stall rescue.
    await this.deps.finisher.drain(this.deps.timings.livenessMs)
    this.deps.finisher.stop()
    await this.unsubscribe?.().catch(() => undefined)
    await this.boss?.stop().catch((err: unknown) => this.deps.logger.warn(`pg-boss stop: ${String(err)}`))
    await deregister(this.deps.db, this.id).catch(() => undefined)
    this.resolveDone(reason)
  }

  private async loop(): Promise<void> {
    let failures = 0
    while (!this.stopping) {
      const free = this.concurrency - this.inFlight.size
      if (free > 0) {
        try {
          const claimed = await this.claim(free)
          failures = 0
          this.markHealthy()
          if (claimed > 0) continue
        } catch (err) {
          failures++
          this.markUnhealthy(err)
          await this.idle(Math.min(250 * 2 ** failures, 5000))
          continue
        }
      }
      await this.idle(this.deps.timings.pollMs)
    }
  }

  /** Claims from queues that were signalled (or all of them, round-robin, after a quiet poll). */
  private async claim(free: number): Promise<number> {
    const all = this.registration.names
    const names = this.fullScan ? all.map((_, i) => all[(this.cursor + i) % all.length]!) : all.filter((n) => this.pendingNames.has(n))
    this.cursor = (this.cursor + 1) % all.length
    this.fullScan = false
    this.pendingNames.clear()
    let claimed = 0
    for (const [index, name] of names.entries()) {
      const room = Math.min(free - claimed, MAX_BATCH)
      if (room <= 0 || this.stopping) {
        for (const rest of names.slice(index)) this.pendingNames.add(rest)
        break
      }
      const jobs = await fetchJobs(this.deps.db, name, room)
      for (const job of jobs) this.launch(job)
      claimed += jobs.length
      if (jobs.length === room) this.pendingNames.add(name)
    }
    // Listed at once, so that if this process is killed now a restart takes them back at once.
    if (claimed > 0 && this.deps.db.capabilities.multiProcess) await heartbeat(bookkeepingOf(this.deps.db), this.registration, [...this.inFlight.keys()])
    return claimed
  }

  private launch(job: ClaimedJob): void {
    const entry: InFlight = { running: null, done: Promise.resolve() }
    this.inFlight.set(job.id, entry)
    entry.done = executeClaimed(this.deps, job, {
      onStart: (running) => {
        entry.running = running
        if (this.stopping) running.abort(new WorkerShutdownError('worker_shutdown', 'The worker shut down while the job ran; it goes back to the queue.'))
      },
    })
      .then((outcome) => {
        if (outcome.kind === 'completed') this.counters.completed++
        else if (outcome.kind === 'evicted') this.counters.evicted++
        else if (outcome.requeue) this.counters.requeued++
        else this.counters.failed++
        if (outcome.kind === 'evicted') this.deps.logger.warn(`job ${job.id} (${job.name}) evicted: ${outcome.error.message}`)
      })
      .catch((err: unknown) => this.deps.logger.error(`job ${job.id} (${job.name}): ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.inFlight.delete(job.id)
        this.wakeUp()
        void this.watchdog?.check()
      })
  }

  private idle(ms: number): Promise<void> {
    // A signal that arrived while claiming must not wait out the poll interval.
    const pending = this.pendingNames.size > 0 && this.inFlight.size < this.concurrency
    if (this.stopping || pending) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.fullScan = true
        done()
      }, ms)
      const done = (): void => {
        clearTimeout(timer)
        this.wakeUp = () => undefined
        resolve()
      }
      this.wakeUp = done
    })
  }

  private async beat(): Promise<void> {
    try {
      await heartbeat(bookkeepingOf(this.deps.db), this.registration, [...this.inFlight.keys()])
      await rescue(this.deps)
      this.markHealthy()
      if (!(await this.deps.signals.checkListening())) {
        this.deps.logger.warn('lost the notification connection; listening again')
        this.fullScan = true
        this.wakeUp()
      }
    } catch (err) {
      this.markUnhealthy(err)
    }
  }

  private markUnhealthy(err: unknown): void {
    if (!this.dbHealthy) return
    this.dbHealthy = false
    this.deps.logger.warn('database unreachable; the worker keeps retrying', { error: err instanceof Error ? err.message : String(err) })
  }

  private markHealthy(): void {
    if (this.dbHealthy) return
    this.dbHealthy = true
    this.fullScan = true
    this.deps.logger.info('database reachable again')
    // The LISTEN connection may have died with the outage.
    this.deps.signals.resubscribe().catch((err: unknown) => this.deps.logger.warn(`could not re-listen: ${String(err)}`))
  }
}
