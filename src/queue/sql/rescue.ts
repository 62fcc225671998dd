import type { SqlExecutor } from '../../db/types.js'
import { failWithRetry, QUEUE_SCHEMA } from '../boss-sql.js'
import { JobStalledError } from '../errors.js'
import { serializeError } from '../../errors/index.js'
import type { JobName } from '../types.js'

/**
 * Active jobs nobody alive holds. A job counts as held when a process with a fresh heartbeat
 * listed it at its last beat; jobs younger than `minAgeMs` are left alone because their
 * process may not have beaten since claiming them.
 */
const STALLED_SQL = `
SELECT j.name, j.id FROM ${QUEUE_SCHEMA}.job AS j
WHERE j.state = 'active'
  AND j.started_on < now() - $1::integer * interval '1 millisecond'
  AND NOT EXISTS (
    SELECT 1 FROM minion_workers AS w
    WHERE w.heartbeat_at > now() - $2::integer * interval '1 millisecond' AND j.id = ANY(w.active_jobs)
  )
LIMIT 1000`

export interface RescueOptions {
  /** Processes silent for longer are gone. 0 treats every other process as gone. */
  livenessMs: number
  minAgeMs: number
}

/**
 * Returns stalled jobs to the queue, or ends them dead once they have stalled more than their
 * max_stalled (pg-boss's retry limit does the counting). Returns the jobs it touched.
 */
export async function rescueStalled(db: SqlExecutor, options: RescueOptions): Promise<Array<{ name: JobName; id: string }>> {
  const { rows } = await db.query<{ name: JobName; id: string }>(STALLED_SQL, [options.minAgeMs, options.livenessMs])
  if (rows.length === 0) return []
  const byName = new Map<JobName, string[]>()
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row.id])
  const error = serializeError(
    new JobStalledError('job_stalled', 'The process running this job went away before it finished.', {
      hint: 'A worker was killed or lost its database connection; the job is retried until it has stalled more than max_stalled times.',
    }),
  )
  for (const [name, ids] of byName) await failWithRetry(db, name, ids, { error })
  return rows
}
