import type { SqlExecutor } from '../../db/index.js'
import { QUEUE_SCHEMA } from '../boss-sql.js'
import type { JobName } from '../types.js'

export const JOB_CHANNEL = 'brain_jobs'

export interface FinishItem {
  name: JobName
  id: string
  fence: number
  /** Stored in pg-boss's output column: {result} or {error}. */
  output: Record<string, unknown>
}

/**
 * Ends a batch of claimed jobs in one statement, each with its own output. Only rows still
 * active under the same claim (retry_count = fence) change, so a job that was reclaimed after a
 * stall is never overwritten by the process that lost it. With `notify`, one NOTIFY lists the
 * finished ids for processes waiting on them.
 */
const FINISH_SQL = `
WITH finished AS (
  UPDATE ${QUEUE_SCHEMA}.job AS j
  SET state = $5::${QUEUE_SCHEMA}.job_state, completed_on = now(), output = u.output::jsonb
  FROM unnest($1::text[], $2::uuid[], $3::integer[], $4::text[]) AS u(name, id, fence, output)
  WHERE j.name = u.name AND j.id = u.id AND j.retry_count = u.fence AND j.state = 'active'
  RETURNING j.id
)
SELECT count(*)::integer AS finished,
  CASE WHEN $6::boolean AND count(*) > 0
    THEN pg_notify('${JOB_CHANNEL}', json_build_object('e', 'done', 'ids', json_agg(id))::text) END AS notified
FROM finished`

/** Returns how many jobs changed (fewer than given when some were reclaimed or cancelled). */
export async function finishJobs(db: SqlExecutor, state: 'completed' | 'failed', items: readonly FinishItem[], notify: boolean): Promise<number> {
  if (items.length === 0) return 0
  const { rows } = await db.query<{ finished: number }>(FINISH_SQL, [
    items.map((i) => i.name),
    items.map((i) => i.id),
    items.map((i) => i.fence),
    items.map((i) => JSON.stringify(i.output)),
    state,
    notify,
  ])
  return Number(rows[0]?.finished ?? 0)
}

/**
 * Puts a claimed job back to waiting without spending its stall budget (a graceful worker
 * shutdown is not the job's fault): the re-claim increments retry_count, so the limit moves too.
 */
const RELEASE_SQL = `
UPDATE ${QUEUE_SCHEMA}.job
SET state = 'retry', retry_limit = retry_limit + 1, output = $4::jsonb
WHERE name = $1 AND id = $2::uuid AND retry_count = $3 AND state = 'active'`

export async function releaseJob(db: SqlExecutor, item: FinishItem): Promise<boolean> {
  const { rowCount } = await db.query(RELEASE_SQL, [item.name, item.id, item.fence, JSON.stringify(item.output)])
  return rowCount > 0
}
