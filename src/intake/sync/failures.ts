import type { SqlExecutor } from '../../db/index.js'
import type { FileFailure } from '../import/index.js'

export interface RecordedFailure extends FileFailure {
  commit: string | null
  attempts: number
  firstFailedAt: Date
}

interface FailureRow {
  path: string
  commit_sha: string | null
  error_class: string
  error_code: string
  message: string
  attempts: number
  first_failed_at: Date
}

/** Files of a source that failed at an earlier commit and still wait for a successful import. */
export async function listFailures(db: SqlExecutor, sourceId: string): Promise<RecordedFailure[]> {
  const { rows } = await db.query<FailureRow>('SELECT path, commit_sha, error_class, error_code, message, attempts, first_failed_at FROM sync_failures WHERE source_id = $1 ORDER BY path', [sourceId])
  return rows.map((r) => ({ path: r.path, class: r.error_class, code: r.error_code, message: r.message, commit: r.commit_sha, attempts: r.attempts, firstFailedAt: r.first_failed_at }))
}

/**
 * Brings the failure record up to date after a sync: paths this sync settled (imported, deleted
 * or dropped) are cleared, or, after a full walk, every earlier entry is; this sync's failures are
 * recorded with their attempt count. Runs in the transaction that moves the bookmark.
 */
export async function recordFailures(db: SqlExecutor, sourceId: string, commit: string, update: { settled: readonly string[] | 'all'; failed: readonly FileFailure[] }): Promise<void> {
  if (update.settled === 'all') {
    await db.query('DELETE FROM sync_failures WHERE source_id = $1 AND NOT (path = ANY($2::text[]))', [sourceId, update.failed.map((f) => f.path)])
  } else {
    const stillFailing = new Set(update.failed.map((f) => f.path))
    const settled = update.settled.filter((path) => !stillFailing.has(path))
    if (settled.length > 0) await db.query('DELETE FROM sync_failures WHERE source_id = $1 AND path = ANY($2::text[])', [sourceId, settled])
  }
  if (update.failed.length === 0) return
  await db.query(
    `INSERT INTO sync_failures (source_id, path, commit_sha, error_class, error_code, message)
     SELECT $1, x.path, $2, x.class, x.code, x.message
     FROM jsonb_to_recordset($3::jsonb) AS x(path text, class text, code text, message text)
     ON CONFLICT (source_id, path) DO UPDATE SET commit_sha = EXCLUDED.commit_sha, error_class = EXCLUDED.error_class,
       error_code = EXCLUDED.error_code, message = EXCLUDED.message, attempts = sync_failures.attempts + 1, last_failed_at = now()`,
    [sourceId, commit, JSON.stringify(update.failed.map((f) => ({ path: f.path, class: f.class, code: f.code, message: f.message })))],
  )
}
