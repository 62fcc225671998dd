import type { Database } from '../db/index.js'
import type { Logger } from '../util/index.js'
import { MAX_BATCH } from './settings.js'
import type { JobSignals } from './signals.js'
import { failWithRetry, finishJobs, releaseJob, type FinishItem } from './boss-sql.js'

export type FinishKind = 'completed' | 'failed' | 'release' | 'stall'

interface Pending {
  kind: FinishKind
  item: FinishItem
  resolve: () => void
}

interface FinisherOptions {
  /** Keep retrying writes the database refused (a worker rides out an outage); else reject. */
  retry: boolean
  logger: Logger
  maxRetryDelayMs?: number
}

/**
 * Writes job outcomes. Completions and failures queued in the same tick go out as one statement
 * per kind, which is what lets one worker drain thousands of short jobs a second.
 */
export class Finisher {
  private queue: Pending[] = []
  private scheduled = false
  private inFlight = new Set<Promise<void>>()
  private stopped = false

  constructor(
    private readonly db: Database,
    private readonly signals: JobSignals,
    private readonly options: FinisherOptions,
  ) {}

  /** Resolves once the outcome is stored (or, for a stopped finisher, abandoned). */
  finish(kind: FinishKind, item: FinishItem): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const pending: Pending = { kind, item, resolve }
      if (!this.options.retry) {
        this.write([pending]).then(resolve, reject)
        return
      }
      this.queue.push(pending)
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  /**
   * Waits for every queued write, or `withinMs` at most: writes the database keeps refusing
   * (a full disk) must not hold a stopping worker forever.
   */
  async drain(withinMs = Number.POSITIVE_INFINITY): Promise<void> {
    const deadline = Date.now() + withinMs
    while ((this.queue.length > 0 || this.inFlight.size > 0) && Date.now() < deadline) {
      if (this.queue.length > 0 && !this.scheduled) this.flush()
      const left = deadline - Date.now()
      await (Number.isFinite(left) ? Promise.race([Promise.all([...this.inFlight]), new Promise((r) => setTimeout(r, Math.max(0, left)).unref())]) : Promise.all([...this.inFlight]))
      if (this.queue.length > 0) await new Promise((r) => setImmediate(r))
    }
  }

  /** Gives up on writes still failing; their jobs stay active until stall rescue. */
  stop(): void {
    this.stopped = true
  }

  private flush(): void {
    this.scheduled = false
    const batch = this.queue.splice(0)
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const slice = batch.slice(i, i + MAX_BATCH)
      const done: Promise<void> = this.writeWithRetry(slice).finally(() => this.inFlight.delete(done))
      this.inFlight.add(done)
    }
  }

  private async writeWithRetry(batch: Pending[]): Promise<void> {
    let delay = 250
    let told = false
    for (;;) {
      try {
        await this.write(batch)
        if (told) this.signals.recorded(batch.map((p) => p.item.id))
        return
      } catch (err) {
        // Whoever waits here for a job that ended learns how now: the retries below may last as
        // long as the disk stays full or the server stays down. A job going back to the queue
        // has not ended; its waiters keep following it.
        if (!told) {
          told = true
          for (const p of batch) {
            if (p.kind === 'completed' || p.kind === 'failed') this.signals.deliverHere({ e: 'unrecorded', id: p.item.id, completed: p.kind === 'completed', output: p.item.output })
          }
        }
        if (this.stopped) {
          for (const p of batch) p.resolve()
          return
        }
        this.options.logger.warn(`could not record ${batch.length} job outcome(s), retrying`, { error: err instanceof Error ? err.message : String(err) })
        await new Promise((r) => setTimeout(r, delay))
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 10_000)
      }
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    const notify = this.signals.crossProcess
    const of = (kind: FinishKind): FinishItem[] => batch.filter((p) => p.kind === kind).map((p) => p.item)
    const completed = of('completed')
    const failed = of('failed')
    if (completed.length > 0) await finishJobs(this.db, 'completed', completed, notify)
    if (failed.length > 0) await finishJobs(this.db, 'failed', failed, notify)
    for (const item of of('release')) await releaseJob(this.db, item)
    for (const item of of('stall')) await failWithRetry(this.db, item.name, [item.id], item.output)
    const finished = [...completed, ...failed].map((i) => i.id)
    if (finished.length > 0) this.signals.deliverLocally({ e: 'done', ids: finished })
    const requeued = [...of('release'), ...of('stall')]
    for (const name of new Set(requeued.map((i) => i.name))) await this.signals.publish({ e: 'new', name })
    // A stall may have been the job's last: waiters re-read it rather than wait for their tick.
    if (requeued.length > 0) await this.signals.publish({ e: 'done', ids: requeued.map((i) => i.id) })
    for (const p of batch) p.resolve()
  }
}
