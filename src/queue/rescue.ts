import type { SqlExecutor } from '../db/index.js'
import { failStalledAttempt, stalledJobs, type StalledRow } from './boss-sql.js'
import { JobStalledError } from './errors.js'
import { serializeError } from '../errors/index.js'
import type { JobName } from './types.js'

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
  const rows = await stalledJobs(db, options)
  // One by one: each error names where its own job was (almost always a single job). A job
  // another rescuer put back in the meantime (and maybe a worker claimed again) is left alone.
  const rescued: Array<{ name: JobName; id: string }> = []
  for (const row of rows) {
    if ((await failStalledAttempt(db, row.name, row.id, Number(row.retry_count), { error: stallError(row) })) > 0) rescued.push({ name: row.name, id: row.id })
  }
  return rescued
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
