import type { SqlExecutor } from '../../db/index.js'
import { isUniqueViolation, QUEUE_SCHEMA, type ClaimedJob } from '../boss-sql.js'
import type { JobName } from '../types.js'

/**
 * Claims one specific waiting job for an inline run, with the same bookkeeping as pg-boss's own
 * claim (retry_count counts re-claims). Returns null when the job is not waiting any more, or
 * when a stately queue already has an active job.
 */
const CLAIM_SQL = `
UPDATE ${QUEUE_SCHEMA}.job
SET state = 'active', started_on = now(),
  retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END
WHERE name = $1 AND id = $2::uuid AND state < 'active'
RETURNING id, data, retry_count`

export async function claimJob(db: SqlExecutor, name: JobName, id: string): Promise<ClaimedJob | null> {
  try {
    const { rows } = await db.query<{ id: string; data: unknown; retry_count: number }>(CLAIM_SQL, [name, id])
    const row = rows[0]
    return row ? { id: row.id, name, data: row.data, fence: Number(row.retry_count) } : null
  } catch (err) {
    if (isUniqueViolation(err)) return null
    throw err
  }
}
