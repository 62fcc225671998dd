import type { JobDetail, JobProgress, JobRecord, JobStatus } from './types.js'

/** A row of the minion_jobs view. */
export interface JobRow {
  id: string
  name: string
  status: JobStatus
  engine_state: string
  data: Record<string, unknown> | null
  idempotency_key: string | null
  max_stalled: number
  timeout_ms: number | null
  attempts: number
  priority: number
  result: unknown
  error: unknown
  progress: JobProgress | null
  created_at: Date
  started_at: Date | null
  completed_at: Date | null
}

export const JOB_COLUMNS = 'id, name, status, engine_state, data, idempotency_key, max_stalled, timeout_ms, attempts, priority, result, error, progress, created_at, started_at, completed_at'

function date(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value)
}

function optionalDate(value: Date | string | null): Date | null {
  return value === null ? null : date(value)
}

export function toJobRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    data: row.data ?? {},
    result: row.result ?? null,
    error: row.error ?? null,
    attempts: Number(row.attempts),
    idempotencyKey: row.idempotency_key,
    maxStalled: Number(row.max_stalled),
    timeoutMs: Number(row.timeout_ms ?? 0),
    createdAt: date(row.created_at),
    startedAt: optionalDate(row.started_at),
    completedAt: optionalDate(row.completed_at),
  }
}

export function toJobDetail(row: JobRow): JobDetail {
  return { ...toJobRecord(row), priority: Number(row.priority), progress: row.progress ?? null, engineState: row.engine_state }
}

export function isFinished(record: Pick<JobRecord, 'status'>): boolean {
  return record.status === 'completed' || record.status === 'dead'
}
