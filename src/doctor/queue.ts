import type { Capabilities, SqlExecutor } from '../db/index.js'
import { DEFAULT_TIMINGS, queueHealthCounts } from '../queue/index.js'
import { check, type DoctorCheck } from './types.js'

interface WorkerCounts {
  live: number
  silent: number
}

/**
 * Dead jobs of the last day, jobs active for longer than their timeout plus the eviction grace
 * (their worker should have ended them), and workers whose heartbeat is fresh.
 */
export async function checkQueue(db: SqlExecutor, capabilities: Capabilities): Promise<DoctorCheck> {
  const jobs = await queueHealthCounts(db)
  const { rows: workerRows } = await db.query<WorkerCounts>(
    `SELECT count(*) FILTER (WHERE heartbeat_at > now() - $1::int * interval '1 millisecond')::int AS live,
            count(*) FILTER (WHERE heartbeat_at <= now() - $1::int * interval '1 millisecond')::int AS silent
     FROM minion_workers WHERE kind = 'worker'`,
    [DEFAULT_TIMINGS.livenessMs],
  )
  const workers = workerRows[0] ?? { live: 0, silent: 0 }
  const summary = `${jobs.waiting} waiting, ${jobs.active} active, ${jobs.dead} dead in the last day; ${workers.live} live worker(s)`
  const problems: string[] = []
  if (jobs.stuck > 0) problems.push(`${jobs.stuck} job(s) active past their timeout (see \`brain jobs list --status active\`)`)
  if (jobs.dead > 0) problems.push(`${jobs.dead} dead job(s) (see \`brain jobs list --status dead\`; \`brain jobs retry <id>\`)`)
  if (workers.silent > 0) problems.push(`${workers.silent} worker(s) stopped sending heartbeats`)
  if (jobs.waiting > 0 && workers.live === 0 && capabilities.multiProcess) problems.push('jobs are waiting and no worker is alive (start one with `brain jobs work`)')
  return problems.length > 0 ? check('queue', 'warn', `${problems.join('; ')}. ${summary}`) : check('queue', 'ok', summary)
}
