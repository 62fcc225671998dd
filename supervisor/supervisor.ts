import type { EventSink } from './events.js'
import { likelyCause } from './exit-cause.js'
import type { HealthMonitor } from './health.js'
import { RestartPolicy, type RestartPolicyOptions } from './restart-policy.js'

/** The parts of a ChildProcess the supervisor uses (tests pass fakes). */
export interface WorkerProcess {
  readonly pid?: number
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown
  kill(signal?: NodeJS.Signals): boolean
}

interface SupervisorOptions {
  spawnWorker: () => WorkerProcess
  events: EventSink
  policy?: Partial<RestartPolicyOptions>
  health?: HealthMonitor | null
  /** After SIGTERM on stop, the worker gets this long before SIGKILL (aborted jobs need ~5 s). */
  stopTimeoutMs?: number
  now?: () => number
}

export type SupervisorEnd = 'stopped' | 'gave_up'

/**
 * Keeps one worker process running: restarts it with exponential backoff when it exits,
 * reports each exit with its likely cause, and gives up after too many consecutive crashes.
 */
export class Supervisor {
  private readonly policy: RestartPolicy
  private readonly now: () => number
  private child: WorkerProcess | null = null
  private startedAt = 0
  private restartTimer: NodeJS.Timeout | null = null
  private stopping = false
  private exited: Promise<void> = Promise.resolve()
  private resolveEnd!: (end: SupervisorEnd) => void
  /** Settles when the supervisor is done: stopped on request, or gave up. */
  readonly done = new Promise<SupervisorEnd>((resolve) => (this.resolveEnd = resolve))

  constructor(private readonly options: SupervisorOptions) {
    this.policy = new RestartPolicy(options.policy)
    this.now = options.now ?? Date.now
  }

  start(): void {
    this.options.events('supervisor_started', { pid: process.pid })
    this.options.health?.start()
    this.spawn()
  }

  /** Stops the worker (SIGTERM, then SIGKILL after the timeout) and the health checks. */
  async stop(reason = 'requested'): Promise<void> {
    if (this.stopping) return this.done.then(() => undefined)
    this.stopping = true
    this.options.events('supervisor_stopping', { reason })
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.options.health?.stop()
    const child = this.child
    if (child) {
      child.kill('SIGTERM')
      const force = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 40_000)
      await this.exited
      clearTimeout(force)
    }
    this.options.events('supervisor_stopped')
    this.resolveEnd('stopped')
  }

  private spawn(): void {
    this.restartTimer = null
    if (this.stopping) return
    const child = this.options.spawnWorker()
    this.child = child
    this.startedAt = this.now()
    this.options.events('worker_started', { pid: child.pid ?? null })
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.onExit(child, code, signal)
        resolve()
      })
    })
  }

  private onExit(child: WorkerProcess, code: number | null, signal: NodeJS.Signals | null): void {
    this.child = null
    const uptimeMs = this.now() - this.startedAt
    const fields = { pid: child.pid ?? null, code, signal, likely_cause: likelyCause(code, signal), uptime_ms: uptimeMs }
    if (this.stopping) {
      this.options.events('worker_exited', fields)
      return
    }
    const decision = this.policy.recordExit(uptimeMs)
    this.options.events('worker_exited', { ...fields, consecutive_crashes: decision.crashes })
    if (decision.giveUp) {
      this.stopping = true
      this.options.health?.stop()
      this.options.events('supervisor_gave_up', { consecutive_crashes: decision.crashes })
      this.resolveEnd('gave_up')
      return
    }
    this.options.events('worker_restart_scheduled', { delay_ms: decision.delayMs, consecutive_crashes: decision.crashes })
    this.restartTimer = setTimeout(() => this.spawn(), decision.delayMs)
  }
}
