/**
 * Start-up work a new service can do a little later: starting the queue worker, loading the
 * embedding model, warming the hooks' path. On the embedded engine every statement runs on the
 * service's one thread, so work started with the service shares that thread with the command that
 * started it, or with the one that arrives right after (`brain init`, then `brain import`). Such
 * work waits until no command has been in flight for a moment, and a service that stays busy runs
 * it anyway once it has waited long enough.
 */

interface QuietWorkTimings {
  /** How long no command may have been in flight before the work starts. */
  quietMs: number
  /** The longest any piece of work waits after it was added, however busy the service is. */
  latestMs: number
  /** How often the service's state is looked at while work waits. */
  checkMs: number
}

const QUIET_WORK_TIMINGS: QuietWorkTimings = { quietMs: 250, latestMs: 5000, checkMs: 25 }

interface QuietWorkOptions {
  /** How long no command has been in flight, in milliseconds (0 while one is). */
  quietForMs: () => number
  onError: (err: unknown) => void
  timings?: Partial<QuietWorkTimings>
  now?: () => number
}

interface Pending {
  run: () => Promise<void>
  addedAt: number
}

/** Runs its work one piece at a time, in the order added, each once the service is quiet. */
export class QuietWork {
  private readonly timings: QuietWorkTimings
  private readonly now: () => number
  private readonly pending: Pending[] = []
  private running = false
  private stopped = false
  private timer: NodeJS.Timeout | null = null
  /** Ends the wait of the piece waiting now. */
  private release: (() => void) | null = null
  private drained: Promise<void> = Promise.resolve()

  constructor(private readonly options: QuietWorkOptions) {
    this.timings = { ...QUIET_WORK_TIMINGS, ...options.timings }
    this.now = options.now ?? Date.now
  }

  /** Queues `run`; it starts once the service is quiet, or `latestMs` from now at the latest. */
  add(run: () => Promise<void>): void {
    if (this.stopped) return
    this.pending.push({ run, addedAt: this.now() })
    if (!this.running) {
      this.running = true
      this.drained = this.drain()
    }
  }

  /** Drops the work not yet started; resolves once the piece running now, if any, has ended. */
  stop(): Promise<void> {
    this.stopped = true
    this.pending.length = 0
    if (this.timer) clearTimeout(this.timer)
    this.release?.()
    return this.drained
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const next = this.pending[0]
      if (!next) break
      await this.whenDue(next)
      if (this.stopped || this.pending[0] !== next) break
      this.pending.shift()
      try {
        await next.run()
      } catch (err) {
        this.options.onError(err)
      }
    }
    this.running = false
  }

  private due(piece: Pending): boolean {
    return this.options.quietForMs() >= this.timings.quietMs || this.now() - piece.addedAt >= this.timings.latestMs
  }

  private whenDue(piece: Pending): Promise<void> {
    return new Promise((resolve) => {
      this.release = () => {
        this.release = null
        resolve()
      }
      const check = (): void => {
        this.timer = null
        if (this.stopped || this.due(piece)) return this.release?.()
        this.timer = setTimeout(check, this.timings.checkMs)
        // Work that waits must not keep a stopping process alive.
        this.timer.unref()
      }
      check()
    })
  }
}
