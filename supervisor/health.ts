import type { EventSink } from './events.js'

interface HealthMonitorOptions {
  /** A trivial query against the current connection; rejects when the database is unreachable. */
  probe: () => Promise<void>
  /** Replaces the connection (close, then open again). */
  reconnect: () => Promise<void>
  events: EventSink
  intervalMs?: number
  /** Consecutive failures before health_warn (the spec's 3). */
  failuresBeforeWarn?: number
  /** A probe that has not answered after this long counts as failed. */
  probeTimeoutMs?: number
}

interface HealthCheckResult {
  ok: boolean
  consecutiveFailures: number
  warned: boolean
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Periodic database health checks for the supervisor. After three consecutive failures it emits
 * `health_warn` (reason `db_connection_degraded`) and reconnects; a success resets the count and,
 * after a warning, emits `health_recovered`.
 */
export class HealthMonitor {
  private failures = 0
  private timer: NodeJS.Timeout | null = null
  private running: Promise<HealthCheckResult> | null = null
  private readonly intervalMs: number
  private readonly threshold: number
  private readonly probeTimeoutMs: number

  constructor(private readonly options: HealthMonitorOptions) {
    this.intervalMs = options.intervalMs ?? 30_000
    this.threshold = options.failuresBeforeWarn ?? 3
    this.probeTimeoutMs = options.probeTimeoutMs ?? 10_000
  }

  start(): void {
    this.timer ??= setInterval(() => void this.runOnce(), this.intervalMs)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** One check; overlapping calls share it. */
  runOnce(): Promise<HealthCheckResult> {
    this.running ??= this.check().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async check(): Promise<HealthCheckResult> {
    try {
      await withTimeout(this.options.probe(), this.probeTimeoutMs)
    } catch (err) {
      this.failures++
      const warned = this.failures % this.threshold === 0
      if (warned) await this.warn(err)
      return { ok: false, consecutiveFailures: this.failures, warned }
    }
    if (this.failures >= this.threshold) this.options.events('health_recovered', { after_failures: this.failures })
    this.failures = 0
    return { ok: true, consecutiveFailures: 0, warned: false }
  }

  private async warn(err: unknown): Promise<void> {
    this.options.events('health_warn', {
      reason: 'db_connection_degraded',
      consecutive_failures: this.failures,
      error: err instanceof Error ? err.message : String(err),
    })
    try {
      await withTimeout(this.options.reconnect(), this.probeTimeoutMs)
      this.options.events('health_reconnect', { ok: true })
    } catch (reconnectErr) {
      this.options.events('health_reconnect', { ok: false, error: reconnectErr instanceof Error ? reconnectErr.message : String(reconnectErr) })
    }
  }
}
