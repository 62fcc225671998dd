import type { SqlExecutor } from '../../db/index.js'
import { QUEUE_SCHEMA } from '../boss-sql.js'
import type { JobName, JobProgress } from '../types.js'
import { JOB_CHANNEL } from './finish-jobs.js'

/**
 * Stores a running job's progress on its record and, with `notify`, tells waiting processes which
 * attempt it came from (a waiter that ran that attempt itself has heard it already).
 */
const PROGRESS_SQL = `
WITH stored AS (
  UPDATE ${QUEUE_SCHEMA}.job SET output = jsonb_build_object('progress', $4::jsonb)
  WHERE name = $1 AND id = $2::uuid AND retry_count = $3 AND state = 'active'
  RETURNING id
)
SELECT CASE WHEN $5::boolean
  THEN pg_notify('${JOB_CHANNEL}', json_build_object('e', 'progress', 'id', id, 'attempt', $3::integer, 'p', $4::jsonb)::text) END AS notified
FROM stored`

export async function storeProgress(db: SqlExecutor, job: { name: JobName; id: string; fence: number }, progress: JobProgress, notify: boolean): Promise<void> {
  await db.query(PROGRESS_SQL, [job.name, job.id, job.fence, JSON.stringify(progress), notify])
}
