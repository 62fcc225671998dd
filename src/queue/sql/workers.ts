import { hostname } from 'node:os'
import type { SqlExecutor } from '../../db/types.js'
import type { JobName } from '../types.js'

export interface WorkerRegistration {
  id: string
  kind: 'worker' | 'inline'
  names: readonly JobName[]
  concurrency: number
}

/** Registration and heartbeat in one statement: a row pruned during an outage comes back. */
const BEAT_SQL = `
INSERT INTO minion_workers (id, kind, pid, host, names, concurrency, active_jobs)
VALUES ($1::uuid, $2, $3, $4, $5::text[], $6, $7::uuid[])
ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), active_jobs = EXCLUDED.active_jobs`

export async function heartbeat(db: SqlExecutor, worker: WorkerRegistration, activeJobs: readonly string[]): Promise<void> {
  await db.query(BEAT_SQL, [worker.id, worker.kind, process.pid, hostname(), [...worker.names], worker.concurrency, [...activeJobs]])
}

export async function deregister(db: SqlExecutor, id: string): Promise<void> {
  await db.query('DELETE FROM minion_workers WHERE id = $1::uuid', [id])
}

/** Long-lived workers serving `name` whose heartbeat is fresh. */
export async function liveWorkerCount(db: SqlExecutor, name: JobName, livenessMs: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM minion_workers
     WHERE kind = 'worker' AND $1 = ANY(names) AND heartbeat_at > now() - $2::integer * interval '1 millisecond'`,
    [name, livenessMs],
  )
  return Number(rows[0]?.n ?? 0)
}

/** Forgets processes that have been silent for longer than `olderThanMs`. */
export async function pruneWorkers(db: SqlExecutor, olderThanMs: number): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM minion_workers WHERE heartbeat_at < now() - $1::bigint * interval '1 millisecond'`, [olderThanMs])
  return rowCount
}
