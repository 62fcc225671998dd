import type { SqlExecutor } from '../../db/index.js'
import { failStalledAttempt, QUEUE_SCHEMA } from '../boss-sql.js'
import { JobStalledError } from '../errors.js'
import { serializeError } from '../../errors/index.js'
import type { JobName } from '../types.js'

/**
 * Active jobs nobody alive holds. A job counts as held when a process with a fresh heartbeat
 * listed it at its last beat; jobs younger than `minAgeMs` are left alone because their
 * process may not have beaten since claiming them.
 */
const STALLED_SQL = `
SELECT j.name, j.id, j.output->'progress'->>'message' AS last_at, j.retry_count, j.retry_limit FROM ${QUEUE_SCHEMA}.job AS j
WHERE j.state = 'active'
  AND j.started_on < now() - $1::integer * interval '1 millisecond'
  AND NOT EXISTS (
    SELECT 1 FROM minion_workers AS w
    WHERE w.heartbeat_at > now() - $2::integer * interval '1 millisecond' AND j.id = ANY(w.active_jobs)
  )
  AND ($3::uuid[] IS NULL OR j.id = ANY($3::uuid[]))
LIMIT 1000`

interface RescueOptions {
  /** Processes silent for longer are gone. 0 treats every other process as gone. */
  livenessMs: number
  minAgeMs: number
  /** Only these jobs (held by processes known to be dead). */
  ids?: readonly string[]
}

/**
 * Returns stalled jobs to the queue, or ends them dead once they have stalled more than their
 * max_stalled (pg-boss's retry limit does the counting). Returns the jobs it touched.
 */
export async function rescueStalled(db: SqlExecutor, options: RescueOptions): Promise<Array<{ name: JobName; id: string }>> {
  const { rows } = await db.query<StalledRow>(STALLED_SQL, [options.minAgeMs, options.livenessMs, options.ids ? [...options.ids] : null])
  // One by one: each error names where its own job was (almost always a single job). A job
  // another rescuer put back in the meantime (and maybe a worker claimed again) is left alone.
  const rescued: Array<{ name: JobName; id: string }> = []
  for (const row of rows) {
    if ((await failStalledAttempt(db, row.name, row.id, Number(row.retry_count), { error: stallError(row) })) > 0) rescued.push({ name: row.name, id: row.id })
  }
  return rescued
}

interface StalledRow {
  name: JobName
  id: string
  /** The last progress message the job stored: for imports and syncs, the file it was at. */
  last_at: string | null
  retry_count: number
  retry_limit: number
}

/**
 * Why the job stopped, naming the last place it reported, so that a file that kills every
 * process reading it (a poison page) is found without reading logs.
 */
function stallError(row: StalledRow): ReturnType<typeof serializeError> {
  const where = row.last_at ? ` It was last at ${row.last_at}.` : ''
  const final = Number(row.retry_count) >= Number(row.retry_limit)
  return serializeError(
    new JobStalledError('job_stalled', `The process running this job died or went away before it finished.${where}`, {
      hint: final
        ? `It stalled more than max_stalled (${row.retry_limit}) times and is not retried${row.last_at ? `; look at ${row.last_at} first, it may be what stops the process` : ''}. \`brain jobs retry\` runs it again.`
        : 'A worker was killed or lost its database connection; the job is retried until it has stalled more than max_stalled times.',
    }),
  )
}
