/**
 * pg-boss's SQL, bound to our database seam. The one-shot CLI path uses pg-boss's own statements
 * (insert, claim, cancel, retry, fail-with-retry, maintenance) without constructing PgBoss,
 * whose module pulls in node-postgres (~70 ms of start-up the embedded engine never needs).
 * Long-lived workers also run the PgBoss class for its maintenance and cron (boss-runtime.ts).
 */
import { createRequire } from 'node:module'
import type { SqlExecutor, SqlParam } from '../db/index.js'
import type { JobName } from './types.js'

export const QUEUE_SCHEMA = 'brain_queue'

interface FetchPlanOptions {
  includeMetadata?: boolean
  priority?: boolean
  ignoreStartAfter?: boolean
}

/** The parts of pg-boss 10's src/plans.js we use (it ships no types for it). */
interface PgBossPlans {
  insertJobs(schema: string): string
  fetchNextJob(schema: string): (options: FetchPlanOptions) => string
  cancelJobs(schema: string): string
  resumeJobs(schema: string): string
  retryJobs(schema: string): string
  failJobsById(schema: string): string
  failJobsByTimeout(schema: string): string
  archive(schema: string, completedInterval: string, failedInterval?: string): string
  drop(schema: string, interval: string): string
  locked(schema: string, query: string | string[]): string
  create(schema: string, version: number): string
}

const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as PgBossPlans

const SQL = {
  insert: plans.insertJobs(QUEUE_SCHEMA),
  fetch: plans.fetchNextJob(QUEUE_SCHEMA)({ includeMetadata: true, priority: true }),
  cancel: plans.cancelJobs(QUEUE_SCHEMA),
  resume: plans.resumeJobs(QUEUE_SCHEMA),
  retry: plans.retryJobs(QUEUE_SCHEMA),
  failWithRetry: plans.failJobsById(QUEUE_SCHEMA),
  failStalled: fencedToAttempt(plans.failJobsById(QUEUE_SCHEMA)),
}

/**
 * pg-boss's fail-by-id limited to one active attempt ($4, the retry count a rescuer saw). Two
 * rescuers may pick the same stalled job; the slower one must not fail the attempt a worker
 * claimed after the first one put the job back.
 */
function fencedToAttempt(failById: string): string {
  const open = "state < 'completed'"
  if (!failById.includes(open)) throw new Error('pg-boss fail plan changed: the stall rescue cannot fence it')
  return failById.replace(open, "state = 'active' AND retry_count = $4::integer")
}

/** pg-boss's construction plan for our schema (the migration carries a copy). */
export function pgBossConstructionSql(version: number): string {
  return plans.create(QUEUE_SCHEMA, version)
}

/** Expire overdue active jobs, archive finished ones, drop old archive rows: pg-boss maintenance. */
export function maintenanceSql(options: { archiveAfterSeconds: number; deleteAfterDays: number }): string[] {
  return [
    plans.locked(QUEUE_SCHEMA, plans.failJobsByTimeout(QUEUE_SCHEMA)),
    plans.locked(QUEUE_SCHEMA, plans.archive(QUEUE_SCHEMA, `${options.archiveAfterSeconds} seconds`)),
    plans.locked(QUEUE_SCHEMA, plans.drop(QUEUE_SCHEMA, `${options.deleteAfterDays} days`)),
  ]
}

/** What we store in pg-boss's `data` column. */
export interface JobEnvelope {
  payload: Record<string, unknown>
  timeout_ms: number
  max_stalled: number
  idempotency_key: string | null
  /** The submitting command's brain settings (Config.jobSettings); none for untrusted payloads. */
  settings?: Record<string, string>
}

interface NewJob {
  id: string
  name: JobName
  data: JobEnvelope
  priority: number
  /** Stalls pg-boss retries before the job fails for good. */
  retryLimit: number
  expireInSeconds: number
}

/** Inserts jobs; a job whose id exists, or that a stately queue refuses, is silently skipped. */
export async function insertJobs(db: SqlExecutor, jobs: readonly NewJob[]): Promise<void> {
  const rows = jobs.map((j) => ({
    id: j.id,
    name: j.name,
    data: j.data,
    priority: j.priority,
    retryLimit: j.retryLimit,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: j.expireInSeconds,
  }))
  await db.query(SQL.insert, [JSON.stringify(rows), null, null, null, null, null])
}

export interface ClaimedJob {
  id: string
  name: JobName
  /** pg-boss's data column (our envelope, unless someone inserted through pg-boss directly). */
  data: unknown
  /** retry_count at claim time: finishing statements match it so a reclaimed job is not overwritten. */
  fence: number
}

interface FetchedRow {
  id: string
  name: string
  data: unknown
  retryCount: number
}

const UNIQUE_VIOLATION = '23505'

function sqlState(err: unknown): string | undefined {
  return err !== null && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/**
 * Claims up to `batchSize` jobs of one queue (pg-boss's SKIP LOCKED claim). A stately queue that
 * already has an active job refuses through a unique index: that means "nothing to claim".
 */
export async function fetchJobs(db: SqlExecutor, name: JobName, batchSize: number): Promise<ClaimedJob[]> {
  try {
    const { rows } = await db.query<FetchedRow>(SQL.fetch, [name, batchSize])
    return rows.map((r) => ({ id: r.id, name, data: r.data, fence: Number(r.retryCount) }))
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) return []
    throw err
  }
}

export function isUniqueViolation(err: unknown): boolean {
  return sqlState(err) === UNIQUE_VIOLATION
}

async function countOf(db: SqlExecutor, sql: string, params: readonly SqlParam[]): Promise<number> {
  const { rows } = await db.query<{ count: number | string }>(sql, params)
  return Number(rows[0]?.count ?? 0)
}

/** Cancels waiting or active jobs; returns how many changed. */
export function cancelJobs(db: SqlExecutor, name: JobName, ids: readonly string[]): Promise<number> {
  return countOf(db, SQL.cancel, [name, ids])
}

/** Puts cancelled jobs back to waiting. */
export function resumeJobs(db: SqlExecutor, name: JobName, ids: readonly string[]): Promise<number> {
  return countOf(db, SQL.resume, [name, ids])
}

/** Gives failed jobs one more attempt. */
export function retryJobs(db: SqlExecutor, name: JobName, ids: readonly string[]): Promise<number> {
  return countOf(db, SQL.retry, [name, ids])
}

/**
 * Fails jobs the way pg-boss fails them: back to waiting while retry_count < retry_limit, else
 * failed for good. Used for stalls, where retry_limit is the job's max_stalled.
 */
export function failWithRetry(db: SqlExecutor, name: JobName, ids: readonly string[], output: object): Promise<number> {
  return countOf(db, SQL.failWithRetry, [name, ids, JSON.stringify(output)])
}

/** failWithRetry for one stalled job, only while it is still active in the attempt that stalled. */
export function failStalledAttempt(db: SqlExecutor, name: JobName, id: string, attempt: number, output: object): Promise<number> {
  return countOf(db, SQL.failStalled, [name, [id], JSON.stringify(output), attempt])
}
