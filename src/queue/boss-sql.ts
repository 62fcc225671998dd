/**
 * Every statement brain runs against pg-boss's own tables (job, archive, queue, and the
 * job_state type), in this one module, written for the schema pg-boss 10.4.2 installs (schema
 * version 24, migration 0100), the version package.json pins. They are owned here rather than
 * taken from pg-boss's private plans module, which a patch release may move or change;
 * test/queue/boss-sql.test.ts runs each one on both engines, and test/queue/boss-shape.test.ts
 * fails when the installed pg-boss builds tables of another shape than PG_BOSS_TABLES records.
 * The one-shot CLI path needs no PgBoss instance (its module pulls in node-postgres, ~70 ms of
 * start-up the embedded engine never needs); long-lived workers also run the PgBoss class,
 * through its public API, for its maintenance and cron (boss-runtime.ts). The queues themselves
 * are rows that migrations insert; minion_jobs is a view over these tables (migrations).
 */
import type { SqlExecutor, SqlParam } from '../db/index.js'
import type { JobName, JobProgress } from './types.js'

export const QUEUE_SCHEMA = 'brain_queue'

/** The pg-boss release, and its schema version, these statements are written for. */
export const PG_BOSS_VERSION = '10.4.2'
export const PG_BOSS_SCHEMA_VERSION = 24

/** pg-boss's job table; its archive holds the same columns and when each row was archived. */
const PG_BOSS_JOB_COLUMNS = {
  id: 'uuid',
  name: 'text',
  priority: 'integer',
  data: 'jsonb',
  state: 'USER-DEFINED',
  retry_limit: 'integer',
  retry_count: 'integer',
  retry_delay: 'integer',
  retry_backoff: 'boolean',
  start_after: 'timestamp with time zone',
  started_on: 'timestamp with time zone',
  singleton_key: 'text',
  singleton_on: 'timestamp without time zone',
  expire_in: 'interval',
  created_on: 'timestamp with time zone',
  completed_on: 'timestamp with time zone',
  keep_until: 'timestamp with time zone',
  output: 'jsonb',
  dead_letter: 'text',
  policy: 'text',
} as const

/**
 * The columns of pg-boss's tables these statements read or write, with their types as
 * information_schema names them, and the job states they compare: what an upgrade must keep.
 */
export const PG_BOSS_TABLES = {
  job: PG_BOSS_JOB_COLUMNS,
  archive: {
    ...PG_BOSS_JOB_COLUMNS,
    archived_on: 'timestamp with time zone',
  },
  queue: { name: 'text', policy: 'text', dead_letter: 'text', retention_minutes: 'integer' },
} as const

/** job_state in its order: the statements compare states with < ('active', 'completed'). */
export const PG_BOSS_JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const

/** The channel on which finished and progressing jobs are announced to waiting processes. */
export const JOB_CHANNEL = 'brain_jobs'

const Q = QUEUE_SCHEMA

/**
 * A job gives up an attempt: back to waiting (`retry`) while attempts remain, else failed for
 * good. A stately queue keeps at most one job per state, so a job whose queue already has one
 * waiting for a retry fails instead (pg-boss does the same, by a conflict on its unique index).
 * The retry waits retry_delay seconds, doubling with jitter when the queue asks for backoff.
 */
function failStatement(where: string, output: string): string {
  return `
WITH target AS (
  SELECT j.id, j.name, j.retry_count < j.retry_limit AND NOT EXISTS (
      SELECT 1 FROM ${Q}.job AS o
      WHERE j.policy = 'stately' AND o.name = j.name AND o.state = 'retry' AND o.id <> j.id
        AND COALESCE(o.singleton_key, '') = COALESCE(j.singleton_key, '')
    ) AS retrying
  FROM ${Q}.job AS j
  WHERE ${where}
), failed AS (
  UPDATE ${Q}.job AS j
  SET state = CASE WHEN t.retrying THEN 'retry'::${Q}.job_state ELSE 'failed'::${Q}.job_state END,
    completed_on = CASE WHEN t.retrying THEN NULL ELSE now() END,
    start_after = CASE
      WHEN NOT t.retrying THEN j.start_after
      WHEN j.retry_backoff THEN now() + j.retry_delay * (2 ^ LEAST(16, j.retry_count + 1) / 2) * (1 + random()) * interval '1 second'
      ELSE now() + j.retry_delay * interval '1 second'
    END,
    output = ${output}
  FROM target AS t
  WHERE j.name = t.name AND j.id = t.id AND ${where}
  RETURNING 1
)
SELECT count(*)::integer AS count FROM failed`
}

/** One statement each; parameters are numbered as the functions below pass them. */
const BOSS_SQL = {
  /** $1 id, $2 name, $3 data, $4 priority, $5 retry limit, $6 lease in seconds. Skipped on a conflict (same id, or a stately queue's one waiting job). */
  insert: `
INSERT INTO ${Q}.job (id, name, data, priority, start_after, dead_letter, expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
SELECT $1::uuid, q.name, $3::jsonb, $4::integer, now(), q.dead_letter, $6::integer * interval '1 second',
  now() + COALESCE(q.retention_minutes * interval '1 minute', interval '14 days'), $5::integer, 0, false, q.policy
FROM ${Q}.queue AS q
WHERE q.name = $2
ON CONFLICT DO NOTHING`,

  /**
   * $1 name, $2 batch size. Claims the next waiting jobs (highest priority, then oldest) past
   * other claimers' locks; of a singleton or stately queue at most one per singleton key, since
   * its unique index allows one active job. retry_count counts the claims after the first. A job
   * is due from its start_after on, that instant included: the embedded engine's clock reads
   * milliseconds, and a worker woken by a new job often fetches within the millisecond the job was
   * inserted in, which a strict comparison left for the next poll, seconds later.
   */
  fetch: `
WITH next AS (
  SELECT id, policy, singleton_key, priority, created_on
  FROM ${Q}.job
  WHERE name = $1 AND state < 'active' AND start_after <= now()
  ORDER BY priority DESC, created_on, id
  LIMIT $2
  FOR UPDATE SKIP LOCKED
), turns AS (
  SELECT id, row_number() OVER (
      PARTITION BY CASE WHEN policy IN ('singleton', 'stately') THEN COALESCE(singleton_key, '') ELSE id::text END
      ORDER BY priority DESC, created_on, id
    ) AS turn
  FROM next
)
UPDATE ${Q}.job AS j
SET state = 'active', started_on = now(),
  retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
FROM turns
WHERE j.name = $1 AND j.id = turns.id AND turns.turn = 1
RETURNING j.id, j.data, j.retry_count`,

  /** $1 name, $2 ids: waiting or active jobs end cancelled. */
  cancel: `
WITH changed AS (
  UPDATE ${Q}.job SET state = 'cancelled', completed_on = now()
  WHERE name = $1 AND id = ANY($2::uuid[]) AND state < 'completed'
  RETURNING 1
)
SELECT count(*)::integer AS count FROM changed`,

  /** $1 name, $2 ids: cancelled jobs wait again. */
  resume: `
WITH changed AS (
  UPDATE ${Q}.job SET state = 'created', completed_on = NULL
  WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'cancelled'
  RETURNING 1
)
SELECT count(*)::integer AS count FROM changed`,

  /** $1 name, $2 ids: failed jobs get one more attempt. */
  retry: `
WITH changed AS (
  UPDATE ${Q}.job SET state = 'retry', retry_limit = retry_limit + 1
  WHERE name = $1 AND id = ANY($2::uuid[]) AND state = 'failed'
  RETURNING 1
)
SELECT count(*)::integer AS count FROM changed`,

  /** $1 name, $2 ids, $3 output. */
  failWithRetry: failStatement(`j.name = $1 AND j.id = ANY($2::uuid[]) AND j.state < 'completed'`, '$3::jsonb'),

  /** failWithRetry fenced to one attempt: $4 is the retry_count the rescuer saw. */
  failStalled: failStatement(`j.name = $1 AND j.id = ANY($2::uuid[]) AND j.state = 'active' AND j.retry_count = $4::integer`, '$3::jsonb'),

  /** Active jobs past their lease (started_on + expire_in), in every queue. */
  expire: failStatement(`j.state = 'active' AND j.started_on + j.expire_in < now()`, `'{"value": {"message": "job failed by timeout in active state"}}'::jsonb`),

  /**
   * $1 name, $2 id: claims one specific waiting job for an inline run, with the same bookkeeping
   * as the claim above (retry_count counts re-claims).
   */
  claimOne: `
UPDATE ${Q}.job
SET state = 'active', started_on = now(),
  retry_count = CASE WHEN started_on IS NOT NULL THEN retry_count + 1 ELSE retry_count END
WHERE name = $1 AND id = $2::uuid AND state < 'active'
RETURNING id, data, retry_count`,

  /**
   * $1 names, $2 ids, $3 fences, $4 outputs, $5 state, $6 notify. Ends a batch of claimed jobs,
   * each with its own output. Only rows still active under the same claim (retry_count = fence)
   * change, so a job reclaimed after a stall is never overwritten by the process that lost it.
   * With $6, one NOTIFY lists the finished ids for processes waiting on them.
   */
  finish: `
WITH finished AS (
  UPDATE ${Q}.job AS j
  SET state = $5::${Q}.job_state, completed_on = now(), output = u.output::jsonb
  FROM unnest($1::text[], $2::uuid[], $3::integer[], $4::text[]) AS u(name, id, fence, output)
  WHERE j.name = u.name AND j.id = u.id AND j.retry_count = u.fence AND j.state = 'active'
  RETURNING j.id
)
SELECT count(*)::integer AS finished,
  CASE WHEN $6::boolean AND count(*) > 0
    THEN pg_notify('${JOB_CHANNEL}', json_build_object('e', 'done', 'ids', json_agg(id))::text) END AS notified
FROM finished`,

  /**
   * $1 name, $2 id, $3 fence, $4 output. Puts a claimed job back to waiting without spending
   * its stall budget: the re-claim increments retry_count, so the limit moves too.
   */
  release: `
UPDATE ${Q}.job
SET state = 'retry', retry_limit = retry_limit + 1, output = $4::jsonb
WHERE name = $1 AND id = $2::uuid AND retry_count = $3 AND state = 'active'`,

  /**
   * $1 name, $2 id, $3 fence, $4 progress, $5 notify. Stores a running job's progress in its
   * output and, with $5, tells waiting processes which attempt it came from.
   */
  progress: `
WITH stored AS (
  UPDATE ${Q}.job SET output = jsonb_build_object('progress', $4::jsonb)
  WHERE name = $1 AND id = $2::uuid AND retry_count = $3 AND state = 'active'
  RETURNING id
)
SELECT CASE WHEN $5::boolean
  THEN pg_notify('${JOB_CHANNEL}', json_build_object('e', 'progress', 'id', id, 'attempt', $3::integer, 'p', $4::jsonb)::text) END AS notified
FROM stored`,

  /**
   * $1 minimum age in ms, $2 liveness in ms, $3 ids or null. Active jobs nobody alive holds: a
   * job counts as held when a process with a fresh heartbeat listed it at its last beat (our
   * minion_workers table); jobs younger than $1 are left alone, their process may not have
   * beaten since claiming them.
   */
  stalled: `
SELECT j.name, j.id, j.output->'progress'->>'message' AS last_at, j.retry_count, j.retry_limit FROM ${Q}.job AS j
WHERE j.state = 'active'
  AND j.started_on < now() - $1::integer * interval '1 millisecond'
  AND NOT EXISTS (
    SELECT 1 FROM minion_workers AS w
    WHERE w.heartbeat_at > now() - $2::integer * interval '1 millisecond' AND j.id = ANY(w.active_jobs)
  )
  AND ($3::uuid[] IS NULL OR j.id = ANY($3::uuid[]))
LIMIT 1000`,
} as const

/**
 * Runs maintenance under pg-boss's own advisory lock for the schema, so that it never overlaps
 * the maintenance a PgBoss instance runs (the key is pg-boss's: the database and the schema).
 */
function underBossLock(statement: string): string {
  return `BEGIN;
SET LOCAL lock_timeout = '30s';
SET LOCAL idle_in_transaction_session_timeout = '30s';
SELECT pg_advisory_xact_lock(('x' || encode(sha224((current_database() || '.pgboss.${Q}')::bytea), 'hex'))::bit(64)::bigint);
${statement.trim()};
COMMIT;`
}

/** Expire overdue active jobs, archive finished ones, drop old archive rows: pg-boss maintenance. */
export function maintenanceSql(options: { archiveAfterSeconds: number; deleteAfterDays: number }): string[] {
  const archiveAfter = Math.max(0, Math.floor(options.archiveAfterSeconds))
  const deleteAfter = Math.max(0, Math.floor(options.deleteAfterDays))
  const archive = `
WITH archived AS (
  DELETE FROM ${Q}.job
  WHERE completed_on < now() - interval '${archiveAfter} seconds' OR (state < 'active' AND keep_until < now())
  RETURNING id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on,
    singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output
)
INSERT INTO ${Q}.archive (id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on,
  singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output)
SELECT * FROM archived
ON CONFLICT DO NOTHING`
  const drop = `DELETE FROM ${Q}.archive WHERE archived_on < now() - interval '${deleteAfter} days'`
  return [underBossLock(BOSS_SQL.expire), underBossLock(archive), underBossLock(drop)]
}

/** What we store in pg-boss's `data` column. */
export interface JobEnvelope {
  payload: Record<string, unknown>
  timeout_ms: number
  max_stalled: number
  idempotency_key: string | null
  /** The submitting command's brain settings (Config.jobSettings); none for untrusted payloads. */
  settings?: Record<string, string>
}

interface NewJob {
  id: string
  name: JobName
  data: JobEnvelope
  priority: number
  /** Stalls pg-boss retries before the job fails for good. */
  retryLimit: number
  expireInSeconds: number
}

/** Inserts jobs; a job whose id exists, or that a stately queue refuses, is silently skipped. */
export async function insertJobs(db: SqlExecutor, jobs: readonly NewJob[]): Promise<void> {
  for (const j of jobs) await db.query(BOSS_SQL.insert, [j.id, j.name, JSON.stringify(j.data), j.priority, j.retryLimit, j.expireInSeconds])
}

export interface ClaimedJob {
  id: string
  name: JobName
  /** pg-boss's data column (our envelope, unless someone inserted through pg-boss directly). */
  data: unknown
  /** retry_count at claim time: finishing statements match it so a reclaimed job is not overwritten. */
  fence: number
}

interface FetchedRow {
  id: string
  data: unknown
  retry_count: number | string
}

const UNIQUE_VIOLATION = '23505'

function sqlState(err: unknown): string | undefined {
  return err !== null && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/**
 * Claims up to `batchSize` jobs of one queue (pg-boss's SKIP LOCKED claim). A stately queue that
 * already has an active job refuses through a unique index: that means "nothing to claim".
 */
export async function fetchJobs(db: SqlExecutor, name: JobName, batchSize: number): Promise<ClaimedJob[]> {
  try {
    const { rows } = await db.query<FetchedRow>(BOSS_SQL.fetch, [name, batchSize])
    return rows.map((r) => ({ id: r.id, name, data: r.data, fence: Number(r.retry_count) }))
  } catch (err) {
    if (sqlState(err) === UNIQUE_VIOLATION) return []
    throw err
  }
}

function isUniqueViolation(err: unknown): boolean {
  return sqlState(err) === UNIQUE_VIOLATION
}

async function countOf(db: SqlExecutor, sql: string, params: readonly SqlParam[]): Promise<number> {
  const { rows } = await db.query<{ count: number | string }>(sql, params)
  return Number(rows[0]?.count ?? 0)
}

/** Cancels waiting or active jobs; returns how many changed. */
export function cancelJobs(db: SqlExecutor, name: JobName, ids: readonly string[]): Promise<number> {
  return countOf(db, BOSS_SQL.cancel, [name, ids])
}

/** Puts cancelled jobs back to waiting. */
export function resumeJobs(db: SqlExecutor, name: JobName, ids: readonly string[]): Promise<number> {
  return countOf(db, BOSS_SQL.resume, [name, ids])
}

/** Gives failed jobs one more attempt. */
export function retryJobs(db: SqlExecutor, name: JobName, ids: readonly string[]): Promise<number> {
  return countOf(db, BOSS_SQL.retry, [name, ids])
}

/**
 * Fails jobs the way pg-boss fails them: back to waiting while retry_count < retry_limit, else
 * failed for good. Used for stalls, where retry_limit is the job's max_stalled.
 */
export function failWithRetry(db: SqlExecutor, name: JobName, ids: readonly string[], output: object): Promise<number> {
  return countOf(db, BOSS_SQL.failWithRetry, [name, ids, JSON.stringify(output)])
}

/** failWithRetry for one stalled job, only while it is still active in the attempt that stalled. */
export function failStalledAttempt(db: SqlExecutor, name: JobName, id: string, attempt: number, output: object): Promise<number> {
  return countOf(db, BOSS_SQL.failStalled, [name, [id], JSON.stringify(output), attempt])
}

/**
 * Claims one specific waiting job for an inline run. Null when the job is not waiting any more,
 * or when a stately queue already has an active job.
 */
export async function claimJob(db: SqlExecutor, name: JobName, id: string): Promise<ClaimedJob | null> {
  try {
    const { rows } = await db.query<FetchedRow>(BOSS_SQL.claimOne, [name, id])
    const row = rows[0]
    return row ? { id: row.id, name, data: row.data, fence: Number(row.retry_count) } : null
  } catch (err) {
    if (isUniqueViolation(err)) return null
    throw err
  }
}

export interface FinishItem {
  name: JobName
  id: string
  fence: number
  /** Stored in pg-boss's output column: {result} or {error}. */
  output: Record<string, unknown>
}

/** Ends claimed jobs; returns how many changed (fewer than given when some were reclaimed or cancelled). */
export async function finishJobs(db: SqlExecutor, state: 'completed' | 'failed', items: readonly FinishItem[], notify: boolean): Promise<number> {
  if (items.length === 0) return 0
  const { rows } = await db.query<{ finished: number }>(BOSS_SQL.finish, [
    items.map((i) => i.name),
    items.map((i) => i.id),
    items.map((i) => i.fence),
    items.map((i) => JSON.stringify(i.output)),
    state,
    notify,
  ])
  return Number(rows[0]?.finished ?? 0)
}

/** Puts a claimed job back to waiting without spending its stall budget (a graceful shutdown is not the job's fault). */
export async function releaseJob(db: SqlExecutor, item: FinishItem): Promise<boolean> {
  const { rowCount } = await db.query(BOSS_SQL.release, [item.name, item.id, item.fence, JSON.stringify(item.output)])
  return rowCount > 0
}

/** Stores a running job's progress on its record, in the attempt it came from. */
export async function storeProgress(db: SqlExecutor, job: { name: JobName; id: string; fence: number }, progress: JobProgress, notify: boolean): Promise<void> {
  await db.query(BOSS_SQL.progress, [job.name, job.id, job.fence, JSON.stringify(progress), notify])
}

export interface StalledRow {
  name: JobName
  id: string
  /** The last progress message the job stored: for imports and syncs, the file it was at. */
  last_at: string | null
  retry_count: number
  retry_limit: number
}

/** Active jobs no live process holds, older than minAgeMs (see BOSS_SQL.stalled). */
export async function stalledJobs(db: SqlExecutor, options: { minAgeMs: number; livenessMs: number; ids?: readonly string[] }): Promise<StalledRow[]> {
  const { rows } = await db.query<StalledRow>(BOSS_SQL.stalled, [options.minAgeMs, options.livenessMs, options.ids ? [...options.ids] : null])
  return rows
}
