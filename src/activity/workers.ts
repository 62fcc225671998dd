import type { SqlExecutor } from '../db/index.js'

/** A process registered with the queue: a `jobs work` worker or an inline runner. */
export interface WorkerInfo {
  id: string
  kind: 'worker' | 'inline'
  pid: number
  host: string
  names: string[]
  concurrency: number
  started_at: string
  heartbeat_at: string
  active_jobs: string[]
  /** Seconds since its last heartbeat. */
  silent_seconds: number
}

/** Every registered worker, newest first. */
export async function listWorkers(db: SqlExecutor): Promise<WorkerInfo[]> {
  const { rows } = await db.query<WorkerInfo>(
    `SELECT id::text AS id, kind, pid, host, names, concurrency,
            to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started_at,
            to_char(heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS heartbeat_at,
            active_jobs::text[] AS active_jobs,
            round(extract(epoch FROM now() - heartbeat_at))::integer AS silent_seconds
       FROM minion_workers ORDER BY started_at DESC`,
  )
  return rows.map((r) => ({ ...r, pid: Number(r.pid), concurrency: Number(r.concurrency), silent_seconds: Number(r.silent_seconds) }))
}
