import { readFileSync, readlinkSync } from 'node:fs'
import { hostname } from 'node:os'
import type { SqlExecutor } from '../../db/index.js'
import { processAlive } from '../../util/process-alive.js'
import type { JobName } from '../types.js'

let space: string | null | undefined

/**
 * This process's pid space: its pid namespace and the machine's boot (Linux). Two registrations
 * with the same space name pids of one process table, so one can check the other's pid. Null
 * elsewhere: containers that share a host name would otherwise mistake each other's pids.
 */
export function processSpace(): string | null {
  if (space !== undefined) return space
  try {
    space = `${hostname()}:${readlinkSync('/proc/self/ns/pid')}:${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}`
  } catch {
    space = null
  }
  return space
}

export interface WorkerRegistration {
  id: string
  kind: 'worker' | 'inline'
  names: readonly JobName[]
  concurrency: number
}

/** Registration and heartbeat in one statement: a row pruned during an outage comes back. */
const BEAT_SQL = `
INSERT INTO minion_workers (id, kind, pid, host, names, concurrency, active_jobs, process_space)
VALUES ($1::uuid, $2, $3, $4, $5::text[], $6, $7::uuid[], $8)
ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), active_jobs = EXCLUDED.active_jobs`

export async function heartbeat(db: SqlExecutor, worker: WorkerRegistration, activeJobs: readonly string[]): Promise<void> {
  await db.query(BEAT_SQL, [worker.id, worker.kind, process.pid, hostname(), [...worker.names], worker.concurrency, [...activeJobs], processSpace()])
}

/**
 * Removes the registrations of processes in this pid space that no longer exist, and returns the
 * jobs they held at their last beat: nobody runs those any more. A pid taken over by a new
 * process looks alive, and its registration is left to go stale as before.
 */
export async function reapDeadWorkers(db: SqlExecutor): Promise<string[]> {
  const here = processSpace()
  if (here === null) return []
  const { rows } = await db.query<{ id: string; pid: number; active_jobs: string[] }>('SELECT id, pid, active_jobs FROM minion_workers WHERE process_space = $1 AND pid <> $2', [here, process.pid])
  const dead = rows.filter((r) => !processAlive(Number(r.pid)))
  if (dead.length === 0) return []
  await db.query('DELETE FROM minion_workers WHERE id = ANY($1::uuid[])', [dead.map((r) => r.id)])
  return dead.flatMap((r) => r.active_jobs)
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

interface JobFollowers {
  /** A process holds the job and is alive: its heartbeat is fresh, or it is this very process. */
  holder: boolean
  /** A long-lived worker serving the job's name has a fresh heartbeat. */
  server: boolean
}

/** Who could still finish a job: the process holding it, and the workers that could claim it. */
export async function jobFollowers(db: SqlExecutor, id: string, name: JobName, livenessMs: number): Promise<JobFollowers> {
  const { rows } = await db.query<{ holder: boolean | null; server: boolean | null }>(
    `SELECT
       bool_or($1::uuid = ANY(active_jobs) AND (heartbeat_at > now() - $3::integer * interval '1 millisecond' OR (pid = $4 AND process_space IS NOT DISTINCT FROM $5))) AS holder,
       bool_or(kind = 'worker' AND $2 = ANY(names) AND heartbeat_at > now() - $3::integer * interval '1 millisecond') AS server
     FROM minion_workers`,
    [id, name, livenessMs, process.pid, processSpace()],
  )
  return { holder: rows[0]?.holder === true, server: rows[0]?.server === true }
}

/**
 * A statement that writes nothing but is checked as a write: on an engine that keeps a free-space
 * reserve it fails with disk_full while the disk is short.
 */
export async function probeWrite(db: SqlExecutor): Promise<void> {
  await db.query('UPDATE minion_workers SET heartbeat_at = heartbeat_at WHERE false')
}
