import {
  BrainError,
  ConfigError,
  ConfirmationRequired,
  DatabaseError,
  LockError,
  NotAvailableError,
  NotFoundError,
  ProviderError,
  UsageError,
  ValidationError,
  type BrainErrorOptions,
  type ErrorEnvelope,
} from '../errors/index.js'
import type { JobRecord } from './types.js'

/** The job's timeout fired; the handler was asked to stop. */
export class JobTimeoutError extends BrainError {
  override readonly errorClass = 'JobTimeout'
}

/** Someone cancelled the job while it ran. */
export class JobCancelledError extends BrainError {
  override readonly errorClass = 'JobCancelled'
}

/** The worker is shutting down; the job goes back to the queue. */
export class WorkerShutdownError extends BrainError {
  override readonly errorClass = 'WorkerShutdown'
  /** True when the job may have caused the shutdown (memory watchdog): it counts as a stall. */
  readonly penalize: boolean

  constructor(code: string, message: string, options: BrainErrorOptions & { penalize?: boolean } = {}) {
    super(code, message, options)
    this.penalize = options.penalize ?? false
  }
}

/** The handler ignored its abort and was abandoned. */
export class JobEvictedError extends BrainError {
  override readonly errorClass = 'JobEvicted'
}

/** The process running the job went away. */
export class JobStalledError extends BrainError {
  override readonly errorClass = 'JobStalled'
}

/** A job failed with an error class this process does not know; keeps the original class name. */
class RemoteJobError extends BrainError {
  override readonly errorClass: string

  constructor(errorClass: string, code: string, message: string, options: BrainErrorOptions = {}) {
    super(code, message, options)
    this.errorClass = errorClass
  }
}

type ErrorClass = new (code: string, message: string, options?: BrainErrorOptions) => BrainError

const KNOWN: Record<string, ErrorClass> = {
  BrainError,
  UsageError,
  ConfirmationRequired,
  NotFoundError,
  ValidationError,
  ConfigError,
  DatabaseError,
  LockError,
  NotAvailableError,
  ProviderError,
  JobTimeout: JobTimeoutError,
  JobCancelled: JobCancelledError,
  JobEvicted: JobEvictedError,
  JobStalled: JobStalledError,
}

const jobs = new WeakMap<Error, JobRecord>()

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback
}

/**
 * Rebuilds a dead job's stored `{class, code, hint, message}` as a BrainError of the same class,
 * so a CLI command that waited on the job reports the handler's real error.
 */
export function rebuildJobError(job: JobRecord): BrainError {
  const stored = (job.error !== null && typeof job.error === 'object' ? job.error : {}) as Partial<ErrorEnvelope>
  const errorClass = text(stored.class, 'JobError')
  const code = text(stored.code, 'job_failed')
  const message = text(stored.message, `Job ${job.id} (${job.name}) failed.`)
  const options = { hint: typeof stored.hint === 'string' ? stored.hint : '' }
  const Known = KNOWN[errorClass]
  const err = Known ? new Known(code, message, options) : new RemoteJobError(errorClass, code, message, options)
  jobs.set(err, job)
  return err
}

/** The dead job behind an error thrown by submitAndWait, if it came from one. */
export function jobOfError(err: unknown): JobRecord | undefined {
  return err instanceof Error ? jobs.get(err) : undefined
}
