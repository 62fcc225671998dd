/**
 * The queue's public vocabulary. pg-boss stores and claims jobs; callers only ever see these
 * shapes, which follow the spec's job record (`minion_jobs`).
 */
import { JOB_CATALOGUE, type CataloguedJob, type JobData } from './catalogue.js'

/** A job's name, as the catalogue writes it (the spec fixes both spellings: `ingest_capture`, `autopilot-cycle`). */
export type JobName = CataloguedJob

/** Every job name, in the catalogue's order. */
export const JOB_NAMES = Object.keys(JOB_CATALOGUE) as [JobName, ...JobName[]]

export const JOB_STATUSES = ['waiting', 'active', 'completed', 'dead'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

export interface SubmitOptions {
  /** Same key (for the same job name) → same job id, for as long as the job is kept. */
  idempotencyKey?: string
  /** The handler's abort signal fires after this long; default per job name. */
  timeoutMs?: number
  /** How many stalls (worker died mid-job) are forgiven before the job ends dead; default 1. */
  maxStalled?: number
  /** Higher runs first; default 0. */
  priority?: number
  /** Brain settings the job runs with (Config.jobSettings of the submitter). */
  settings?: Record<string, string>
}

export interface JobProgress {
  done: number
  total?: number
  message?: string
  /** What `done` counts ('chunks', 'files'); a terminal shows a rate and time left for it. */
  unit?: string
}

export interface SubmitAndWaitOptions extends SubmitOptions {
  onProgress?: (p: JobProgress) => void
  /** Stops waiting (and aborts an inline run); the job itself is left to the queue. */
  signal?: AbortSignal
}

export interface JobRecord {
  id: string
  name: string
  status: JobStatus
  data: Record<string, unknown>
  result: unknown
  /** A serialized `{class, code, hint, message}` when the job is dead (or the last stall). */
  error: unknown
  /** How many times the job was claimed. */
  attempts: number
  idempotencyKey: string | null
  maxStalled: number
  timeoutMs: number
  createdAt: Date
  startedAt: Date | null
  completedAt: Date | null
}

/** A job record with the extra fields `jobs get` shows. */
export interface JobDetail extends JobRecord {
  priority: number
  progress: JobProgress | null
  /** pg-boss's own state name (created, retry, active, completed, cancelled, failed). */
  engineState: string
}

export type JobCounts = Record<JobStatus, number>

export interface QueueStats extends JobCounts {
  byName: Record<string, JobCounts>
}

export interface ListFilter {
  status?: JobStatus
  name?: JobName
  limit?: number
}

export interface Queue {
  /** Refuses data its job's catalogue schema refuses (the job's own typed error); nothing is enqueued then. */
  submit<N extends JobName>(name: N, data: JobData<N>, options?: SubmitOptions): Promise<JobRecord>
  submitAndWait<N extends JobName>(name: N, data: JobData<N>, options?: SubmitAndWaitOptions): Promise<JobRecord>
  get(id: string): Promise<JobDetail | null>
  list(filter?: ListFilter): Promise<JobRecord[]>
  cancel(id: string): Promise<boolean>
  retry(id: string): Promise<boolean>
  stats(): Promise<QueueStats>
  close(): Promise<void>
}

export function isJobName(value: string): value is JobName {
  return (JOB_NAMES as readonly string[]).includes(value)
}

export function isJobStatus(value: string): value is JobStatus {
  return (JOB_STATUSES as readonly string[]).includes(value)
}
