import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import { serializeError, type ErrorEnvelope } from '../errors/index.js'
import type { Logger } from '../util/index.js'
import type { JobContext, JobHandler } from './handler.js'
import { JobEvictedError, JobTimeoutError, WorkerShutdownError } from './errors.js'
import type { JobName, JobProgress } from './types.js'

/** Timers, injectable so tests can drive timeouts and eviction by hand. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

export type RunOutcome =
  | { kind: 'completed'; result: unknown }
  /** The handler rejected (or was aborted and then rejected). `requeue` marks a worker shutdown. */
  | { kind: 'failed'; error: ErrorEnvelope; requeue: false | 'release' | 'stall' }
  /** The handler ignored its abort for `evictAfterMs`; it may still be running. */
  | { kind: 'evicted'; error: ErrorEnvelope }

export interface RunJobInput {
  jobId: string
  name: JobName
  data: Record<string, unknown>
  handler: JobHandler
  db: Database
  config: Config
  logger: Logger
  timeoutMs: number
  evictAfterMs: number
  onProgress?: (p: JobProgress) => void
  timers?: Timers
}

export interface RunningJob {
  readonly jobId: string
  /** Settles once: with the handler's result, its error, or at eviction. Never rejects. */
  readonly outcome: Promise<RunOutcome>
  /** Fires the handler's abort signal (first reason wins) and starts the eviction clock. */
  abort(reason: Error): void
}

function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null
  return JSON.parse(JSON.stringify(value)) as unknown
}

function requeueFor(reason: unknown): false | 'release' | 'stall' {
  if (!(reason instanceof WorkerShutdownError)) return false
  return reason.penalize ? 'stall' : 'release'
}

/**
 * Runs one handler under the queue's rules, the same way for a worker and for an inline run:
 * the job's timeout fires its AbortSignal, and a handler that has not settled `evictAfterMs`
 * after the abort is given up on (the caller marks the job dead and moves on).
 */
export function startJob(input: RunJobInput): RunningJob {
  const timers = input.timers ?? realTimers
  const controller = new AbortController()
  let settle!: (outcome: RunOutcome) => void
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve))
  let settled = false
  let evictTimer: unknown = null
  const finish = (value: RunOutcome): void => {
    if (settled) return
    settled = true
    timers.clearTimeout(timeoutTimer)
    if (evictTimer !== null) timers.clearTimeout(evictTimer)
    settle(value)
  }
  const abort = (reason: Error): void => {
    if (settled || controller.signal.aborted) return
    controller.abort(reason)
    evictTimer = timers.setTimeout(() => {
      const code = reason instanceof JobTimeoutError ? 'job_timeout' : 'job_aborted'
      const evicted = new JobEvictedError('job_evicted', `The handler ignored its abort (${code}) and was still running ${input.evictAfterMs / 1000}s later.`, {
        hint: 'The job was abandoned; its handler must honour ctx.signal.',
      })
      finish({ kind: 'evicted', error: serializeError(evicted) })
    }, input.evictAfterMs)
  }
  const timeoutTimer = timers.setTimeout(() => {
    abort(
      new JobTimeoutError('job_timeout', `The job ran longer than its timeout (${input.timeoutMs} ms).`, {
        hint: 'Submit it with a longer timeout, or make the work smaller.',
      }),
    )
  }, input.timeoutMs)
  const ctx: JobContext = {
    jobId: input.jobId,
    name: input.name,
    data: input.data,
    signal: controller.signal,
    db: input.db,
    config: input.config,
    logger: input.logger,
    progress: (p) => {
      try {
        input.onProgress?.(p)
      } catch (err) {
        input.logger.warn(`progress listener failed: ${err instanceof Error ? err.message : String(err)}`)
      }
    },
  }
  Promise.resolve()
    .then(() => {
      // Aborted before it began (a shutdown right after the claim): do not start it at all.
      controller.signal.throwIfAborted()
      return input.handler(ctx)
    })
    .then(
      (result) => {
        try {
          finish({ kind: 'completed', result: jsonSafe(result) })
        } catch (err) {
          finish({ kind: 'failed', error: serializeError(err), requeue: false })
        }
      },
      (err: unknown) => {
        // After an abort the abort's reason explains the failure better than whatever the
        // handler threw while stopping (usually a generic AbortError).
        const reason: unknown = controller.signal.aborted ? controller.signal.reason : err
        finish({ kind: 'failed', error: serializeError(reason), requeue: requeueFor(reason) })
      },
    )
  return { jobId: input.jobId, outcome, abort }
}
