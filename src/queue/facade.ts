import type { Config } from '../config/index.js'
import { WAL_SEGMENT_BYTES, bookkeepingOf, type Database } from '../db/index.js'
import { DatabaseError } from '../errors/index.js'
import type { Logger } from '../util/index.js'
import { registeredHandlers, type HandlerResolver } from './handler.js'
import { cancelJobs, insertJobs, resumeJobs, retryJobs } from './boss-sql.js'
import { parseJobData, type JobData } from './catalogue.js'
import { buildEnvelope, jobIdFor, toJobName } from './envelope.js'
import { rebuildJobError } from './errors.js'
import type { ExecutionDeps } from './execute.js'
import { Finisher } from './finisher.js'
import { isFinished } from './record.js'
import type { Timers } from './run-job.js'
import { leaseSeconds, resolveTimings, type QueueTimings } from './settings.js'
import { signalsFor } from './signals.js'
import { countJobs, listJobs, readJob, readOldestWaiting } from './sql/read-jobs.js'
import { rescueStalled } from './rescue.js'
import type { JobDetail, JobName, JobRecord, ListFilter, Queue, QueueStats, SubmitAndWaitOptions, SubmitOptions } from './types.js'
import { awaitJob } from './wait.js'

export interface OpenQueueContext {
  db: Database
  config: Config
  logger: Logger
  /** Test overrides of the spec's durations. */
  timings?: Partial<QueueTimings>
  /** Where handlers come from; tests inject their own. */
  resolver?: HandlerResolver
  timers?: Timers
}

const orphansRescued = new WeakSet<Database>()

/**
 * On an engine only one process can open, any job still active when the database is opened was
 * left by a process that died: return it to the queue (as a stall) before doing anything else.
 */
async function rescueOrphans(db: Database): Promise<void> {
  if (db.capabilities.multiProcess || orphansRescued.has(db)) return
  orphansRescued.add(db)
  await rescueStalled(db, { livenessMs: 0, minAgeMs: 0 })
}

export function executionDeps(ctx: OpenQueueContext, options: { retryWrites: boolean }): ExecutionDeps {
  const signals = signalsFor(ctx.db)
  return {
    db: ctx.db,
    config: ctx.config,
    logger: ctx.logger,
    timings: resolveTimings(ctx.timings),
    resolver: ctx.resolver ?? registeredHandlers,
    signals,
    finisher: new Finisher(bookkeepingOf(ctx.db), signals, { retry: options.retryWrites, logger: ctx.logger }),
    timers: ctx.timers,
  }
}

class BrainQueue implements Queue {
  constructor(private readonly deps: ExecutionDeps) {}

  async submit<N extends JobName>(name: N, data: JobData<N>, options: SubmitOptions = {}): Promise<JobDetail> {
    toJobName(name)
    // By default a job runs with the settings of the configuration it was submitted with.
    const envelope = buildEnvelope(name, data as Record<string, unknown>, { settings: this.deps.config.jobSettings, ...options })
    const id = jobIdFor(name, options.idempotencyKey)
    if (options.idempotencyKey !== undefined) {
      const existing = await readJob(this.deps.db, id)
      if (existing) return existing
    }
    // Checked once a job would be inserted: a submission that rejoins a kept job brings no data of its own.
    parseJobData(name, data)
    // A job starts only with room for the engine's next log segment beyond the reserve, so on a
    // filling disk it is refused at once rather than stopped part way.
    this.deps.db.checkRoom?.(WAL_SEGMENT_BYTES)
    // A stately queue (autopilot-cycle) refuses a second waiting job: the caller gets the one
    // that waits. If that one is claimed in between, the next round inserts.
    for (let attempt = 0; attempt < 3; attempt++) {
      await insertJobs(this.deps.db, [
        {
          id,
          name,
          data: envelope,
          priority: options.priority ?? 0,
          retryLimit: envelope.max_stalled,
          expireInSeconds: leaseSeconds(envelope.timeout_ms, this.deps.timings),
        },
      ])
      const stored = (await readJob(this.deps.db, id)) ?? (await readOldestWaiting(this.deps.db, name))
      if (stored) {
        await this.deps.signals.publish({ e: 'new', name })
        return stored
      }
    }
    throw new DatabaseError('job_enqueue_failed', `Could not enqueue the ${name} job.`, { hint: 'Try again; if it persists, check `brain jobs list`.' })
  }

  async submitAndWait<N extends JobName>(name: N, data: JobData<N>, options: SubmitAndWaitOptions = {}): Promise<JobDetail> {
    const submitted = await this.submit(name, data, options)
    const final = isFinished(submitted) ? submitted : await awaitJob(this.deps, submitted, options)
    if (final.status === 'dead') throw rebuildJobError(final)
    return final
  }

  get(id: string): Promise<JobDetail | null> {
    return readJob(this.deps.db, id)
  }

  list(filter: ListFilter = {}): Promise<JobRecord[]> {
    return listJobs(this.deps.db, filter)
  }

  async cancel(id: string): Promise<boolean> {
    const job = await readJob(this.deps.db, id)
    if (!job || isFinished(job)) return false
    const changed = await cancelJobs(this.deps.db, job.name as JobName, [id])
    if (changed === 0) return false
    await this.deps.signals.publish({ e: 'cancel', id })
    await this.deps.signals.publish({ e: 'done', ids: [id] })
    return true
  }

  async retry(id: string): Promise<boolean> {
    const job = await readJob(this.deps.db, id)
    if (!job) return false
    const name = job.name as JobName
    const changed = job.engineState === 'failed' ? await retryJobs(this.deps.db, name, [id]) : job.engineState === 'cancelled' ? await resumeJobs(this.deps.db, name, [id]) : 0
    if (changed > 0) await this.deps.signals.publish({ e: 'new', name })
    return changed > 0
  }

  stats(): Promise<QueueStats> {
    return countJobs(this.deps.db)
  }

  async close(): Promise<void> {
    await this.deps.finisher.drain()
  }
}

/**
 * Opens the job queue on an open brain. Cheap: no pg-boss runtime, no timers; the database
 * handle stays the caller's to close.
 */
export async function openQueue(ctx: OpenQueueContext): Promise<Queue> {
  await rescueOrphans(ctx.db)
  return new BrainQueue(executionDeps(ctx, { retryWrites: false }))
}
