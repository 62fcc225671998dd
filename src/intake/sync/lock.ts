import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { bookkeepingOf, type Database, type SqlExecutor } from '../../db/index.js'
import { LockError } from '../../errors/index.js'
import { processAlive } from '../../util/process-alive.js'

export interface SyncLock {
  readonly sourceId: string
  release(): Promise<void>
}

export interface SyncLockOptions {
  /** Who holds the lock, for the refusal message (e.g. "sync job 12"). */
  holder: string
  /** A lock whose heartbeat is older than this is abandoned and taken over. */
  staleAfterMs?: number
  heartbeatMs?: number
  /** Whether a process on this host is alive; injected by tests. */
  isAlive?: (pid: number) => boolean
}

interface LockRow {
  token: string
  holder: string
  pid: number
  hostname: string
  acquired_at: Date
}

export const SYNC_LOCK_STALE_MS = 120_000
const HEARTBEAT_MS = 20_000

/**
 * Locks this process let go of but could not delete (the delete itself refused, as on a disk
 * past even the bookkeeping floor): the next sync from this process takes them over instead of
 * waiting two minutes for a lock nobody holds.
 */
const releasedUndeleted = new Set<string>()

async function tryInsert(db: SqlExecutor, sourceId: string, token: string, holder: string, staleAfterMs: number): Promise<boolean> {
  const { rows } = await db.query<{ token: string }>(
    `INSERT INTO sync_locks (source_id, token, holder, pid, hostname) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (source_id) DO UPDATE SET token = EXCLUDED.token, holder = EXCLUDED.holder, pid = EXCLUDED.pid,
       hostname = EXCLUDED.hostname, acquired_at = now(), heartbeat_at = now()
     WHERE sync_locks.heartbeat_at < now() - make_interval(secs => $6::double precision)
     RETURNING token`,
    [sourceId, token, holder, process.pid, hostname(), staleAfterMs / 1000],
  )
  return rows[0]?.token === token
}

/**
 * Takes the sync lock of one source: a row in sync_locks, so it works the same on both engines
 * and across processes and machines on the server engine. Two syncs of one source are never
 * interleaved; the second is refused with `sync_in_progress` naming the holder. A holder that
 * died is replaced at once when it ran on this host, else once its heartbeat is stale.
 */
export async function acquireSyncLock(db: Database, sourceId: string, options: SyncLockOptions): Promise<SyncLock> {
  const token = randomUUID()
  const staleAfterMs = options.staleAfterMs ?? SYNC_LOCK_STALE_MS
  const isAlive = options.isAlive ?? processAlive
  let taken = await tryInsert(db, sourceId, token, options.holder, staleAfterMs)
  if (!taken) {
    const { rows } = await db.query<LockRow>('SELECT token, holder, pid, hostname, acquired_at FROM sync_locks WHERE source_id = $1', [sourceId])
    const current = rows[0]
    const ownLeftover = current !== undefined && releasedUndeleted.has(current.token)
    if (current && current.hostname === hostname() && (ownLeftover || (current.pid !== process.pid && !isAlive(current.pid)))) {
      await db.query('DELETE FROM sync_locks WHERE source_id = $1 AND token = $2', [sourceId, current.token])
      releasedUndeleted.delete(current.token)
    } else if (current) {
      const since = current.acquired_at instanceof Date ? current.acquired_at.toISOString() : String(current.acquired_at)
      throw new LockError('sync_in_progress', `Source "${sourceId}" is already being synced by ${current.holder} (pid ${current.pid} on ${current.hostname}, since ${since}).`, {
        hint: 'Wait for that sync to finish, then run this one again; syncs of one source never run interleaved.',
      })
    }
    taken = await tryInsert(db, sourceId, token, options.holder, staleAfterMs)
    if (!taken) throw new LockError('sync_in_progress', `Source "${sourceId}" was just locked by another sync.`, { hint: 'Run the sync again once it finishes.' })
  }
  // The lock's own upkeep is bookkeeping: a sync stopped by a full disk must still let go of it.
  const upkeep: SqlExecutor = bookkeepingOf(db)
  const timer = setInterval(() => {
    upkeep.query('UPDATE sync_locks SET heartbeat_at = now() WHERE source_id = $1 AND token = $2', [sourceId, token]).catch(() => undefined)
  }, options.heartbeatMs ?? HEARTBEAT_MS)
  timer.unref()
  let released = false
  return {
    sourceId,
    async release() {
      if (released) return
      released = true
      clearInterval(timer)
      try {
        await upkeep.query('DELETE FROM sync_locks WHERE source_id = $1 AND token = $2', [sourceId, token])
      } catch {
        // Not thrown: it would hide why the sync stopped, and the next sync takes this row over.
        releasedUndeleted.add(token)
      }
    },
  }
}
