import type { SqlExecutor } from '../../db/index.js'
import { DEFAULT_TIMINGS } from '../settings.js'
import type { JobName, JobStatus } from '../types.js'

/** What `brain doctor` reports about the queue as a whole. */
export interface QueueHealthCounts {
  /** Jobs that ended dead in the last day. */
  dead: number
  waiting: number
  active: number
  /** Active jobs past their timeout plus the eviction grace: their worker should have ended them. */
  stuck: number
}

export async function queueHealthCounts(db: SqlExecutor): Promise<QueueHealthCounts> {
  const { rows } = await db.query<QueueHealthCounts>(
    `SELECT count(*) FILTER (WHERE status = 'dead' AND COALESCE(completed_at, created_at) > now() - interval '1 day')::int AS dead,
            count(*) FILTER (WHERE status = 'waiting')::int AS waiting,
            count(*) FILTER (WHERE status = 'active')::int AS active,
            count(*) FILTER (WHERE status = 'active' AND started_at < now() - (timeout_ms + $1::int) * interval '1 millisecond')::int AS stuck
     FROM minion_jobs`,
    [DEFAULT_TIMINGS.evictAfterMs],
  )
  return rows[0] ?? { dead: 0, waiting: 0, active: 0, stuck: 0 }
}

/** The id of the job of `name` submitted with this idempotency key, while it is kept. */
export async function findJobIdByKey(db: SqlExecutor, name: JobName, idempotencyKey: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM minion_jobs WHERE name = $1 AND idempotency_key = $2 LIMIT 1`, [name, idempotencyKey])
  return rows[0]?.id ?? null
}

export interface CountJobsFilter {
  statuses: readonly JobStatus[]
  /** Only jobs whose data has this top-level string field with this value. */
  dataField?: { key: string; value: string }
}

/** Jobs of one name by status (every asked status is present, zero when none). */
export async function countJobsOf(db: SqlExecutor, name: JobName, filter: CountJobsFilter): Promise<Partial<Record<JobStatus, number>>> {
  const { rows } = await db.query<{ status: JobStatus; n: number }>(
    `SELECT status, count(*)::integer AS n FROM minion_jobs
     WHERE name = $1 AND status = ANY($2::text[]) AND ($3::text IS NULL OR data ->> $3 = $4)
     GROUP BY status`,
    [name, [...filter.statuses], filter.dataField?.key ?? null, filter.dataField?.value ?? null],
  )
  const counts: Partial<Record<JobStatus, number>> = {}
  for (const status of filter.statuses) counts[status] = Number(rows.find((r) => r.status === status)?.n ?? 0)
  return counts
}
