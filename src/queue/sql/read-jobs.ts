import type { SqlExecutor } from '../../db/index.js'
import { JOB_COLUMNS, toJobDetail, toJobRecord, type JobRow } from '../record.js'
import { JOB_STATUSES, type JobDetail, type JobName, type JobRecord, type ListFilter, type QueueStats } from '../types.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function isJobId(value: string): boolean {
  return UUID.test(value)
}

export async function readJob(db: SqlExecutor, id: string): Promise<JobDetail | null> {
  if (!isJobId(id)) return null
  const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM minion_jobs WHERE id = $1::uuid ORDER BY archived LIMIT 1`, [id])
  return rows[0] ? toJobDetail(rows[0]) : null
}

/** The oldest waiting job of a queue: what a stately queue kept instead of a new submission. */
export async function readOldestWaiting(db: SqlExecutor, name: JobName): Promise<JobDetail | null> {
  const { rows } = await db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM minion_jobs WHERE name = $1 AND status = 'waiting' AND NOT archived ORDER BY created_at LIMIT 1`, [name])
  return rows[0] ? toJobDetail(rows[0]) : null
}

export async function listJobs(db: SqlExecutor, filter: ListFilter = {}): Promise<JobRecord[]> {
  const limit = Math.max(1, Math.min(filter.limit ?? 50, 10_000))
  const { rows } = await db.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM minion_jobs
     WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR name = $2)
     ORDER BY created_at DESC, id LIMIT $3`,
    [filter.status ?? null, filter.name ?? null, limit],
  )
  return rows.map(toJobRecord)
}

function zeroCounts(): Record<(typeof JOB_STATUSES)[number], number> {
  return { waiting: 0, active: 0, completed: 0, dead: 0 }
}

export async function countJobs(db: SqlExecutor): Promise<QueueStats> {
  const { rows } = await db.query<{ name: string; status: (typeof JOB_STATUSES)[number]; n: number }>('SELECT name, status, count(*)::integer AS n FROM minion_jobs GROUP BY name, status')
  const stats: QueueStats = { ...zeroCounts(), byName: {} }
  for (const row of rows) {
    const n = Number(row.n)
    stats[row.status] += n
    const byName = (stats.byName[row.name] ??= zeroCounts())
    byName[row.status] += n
  }
  return stats
}
