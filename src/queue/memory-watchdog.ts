import type { Logger } from '../util/index.js'

interface MemoryWatchdogOptions {
  /** Resident set size, in MB, above which the worker shuts down. */
  thresholdMb: number
  /** Periodic check besides the one after each job (the spec's 60 s). */
  intervalMs?: number
  /** RSS of this process in bytes; pidusage by default. */
  sample?: () => Promise<number>
  onExceeded: (rssMb: number) => void
  logger: Logger
}

async function pidusageRss(): Promise<number> {
  const { default: pidusage } = await import('pidusage')
  return (await pidusage(process.pid)).memory
}

/**
 * Watches the worker's resident memory. A leak or one huge job would otherwise grow the worker
 * until the kernel kills it mid-job; shutting down at a threshold lets in-flight jobs be aborted
 * and requeued, and the supervisor starts a fresh worker.
 */
export class MemoryWatchdog {
  private timer: NodeJS.Timeout | null = null
  private checking: Promise<void> | null = null
  private fired = false

  constructor(private readonly options: MemoryWatchdogOptions) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.options.intervalMs ?? 60_000)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Samples RSS; concurrent calls share one sample. Fires onExceeded at most once. */
  check(): Promise<void> {
    this.checking ??= this.sampleOnce().finally(() => {
      this.checking = null
    })
    return this.checking
  }

  private async sampleOnce(): Promise<void> {
    if (this.fired) return
    let rssMb: number
    try {
      rssMb = (await (this.options.sample ?? pidusageRss)()) / (1024 * 1024)
    } catch (err) {
      this.options.logger.warn('memory check failed', { error: err instanceof Error ? err.message : String(err) })
      return
    }
    if (rssMb > this.options.thresholdMb && !this.fired) {
      this.fired = true
      this.stop()
      this.options.logger.warn(`worker memory ${Math.round(rssMb)} MB is over the ${this.options.thresholdMb} MB limit; shutting down`)
      this.options.onExceeded(rssMb)
    }
  }
}
