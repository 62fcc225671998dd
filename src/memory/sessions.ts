/**
 * What recall has volunteered inside one conversation. The state lives in the brain, so every
 * surface (CLI, MCP, a hook through the service) shares it, and it expires on its own.
 */
import type { SqlExecutor } from '../db/index.js'

/** How long a session remembers what it was told after its last mention. */
export const SESSION_TTL_HOURS = 24

/** Items already volunteered in the session, with when; an item is `<page id>` or `<page id>#<symbol>`. */
export async function volunteered(db: SqlExecutor, sessionId: string, sourceId: string): Promise<Map<string, Date>> {
  const { rows } = await db.query<{ item: string; volunteered_at: Date }>(`SELECT item, volunteered_at FROM memory_session_pages WHERE session_id = $1 AND source_id = $2 AND expires_at > now()`, [
    sessionId,
    sourceId,
  ])
  return new Map(rows.map((r) => [r.item, new Date(r.volunteered_at)]))
}

/**
 * Prunes expired rows in the statement that writes the session's rows, as a WITH clause: one
 * statement a recall instead of two. The rows being written are left to the write, which renews
 * them, so the two never touch the same row.
 */
const PRUNE_EXPIRED = `WITH pruned AS (
       DELETE FROM memory_session_pages
       WHERE expires_at <= now() AND NOT (session_id = $1 AND source_id = $2 AND item = ANY($3::text[])))`

/** Records items as told to the session (the session wrote them itself), whether or not it was told before. */
export async function recordVolunteered(db: SqlExecutor, sessionId: string, sourceId: string, items: readonly string[]): Promise<void> {
  if (items.length === 0) return
  await db.query(
    `${PRUNE_EXPIRED}
     INSERT INTO memory_session_pages (session_id, source_id, item, volunteered_at, expires_at)
     SELECT $1, $2, x, now(), now() + make_interval(hours => $4::int) FROM unnest($3::text[]) AS x
     ON CONFLICT (session_id, source_id, item) DO UPDATE SET volunteered_at = EXCLUDED.volunteered_at, expires_at = EXCLUDED.expires_at`,
    [sessionId, sourceId, [...items], SESSION_TTL_HOURS],
  )
}

/**
 * Claims items for the session in one statement and returns those this call may volunteer: an
 * item never told, told so long ago that it expired, or a page changed since it was told. Two
 * recalls of one session at once never both get an item: the row is the claim, and the one that
 * loses the insert sees the winner's row and claims nothing. A code definition's item
 * (`<page id>#<symbol>`) is told again only after it expires.
 */
export async function claimVolunteered(db: SqlExecutor, sessionId: string, sourceId: string, items: readonly string[]): Promise<Set<string>> {
  if (items.length === 0) return new Set()
  const { rows } = await db.query<{ item: string }>(
    `${PRUNE_EXPIRED}
     INSERT INTO memory_session_pages AS s (session_id, source_id, item, volunteered_at, expires_at)
     SELECT $1, $2, x, now(), now() + make_interval(hours => $4::int) FROM unnest($3::text[]) AS x
     ON CONFLICT (session_id, source_id, item) DO UPDATE SET volunteered_at = EXCLUDED.volunteered_at, expires_at = EXCLUDED.expires_at
     WHERE s.expires_at <= now()
        OR CASE WHEN strpos(s.item, '#') = 0 THEN s.volunteered_at < (SELECT p.updated_at FROM pages p WHERE p.id = s.item::bigint) ELSE false END
     RETURNING item`,
    [sessionId, sourceId, [...items], SESSION_TTL_HOURS],
  )
  return new Set(rows.map((r) => r.item))
}

/** Forgets what the session was told, in every source: after its context was compacted it knows none of it. */
export async function forgetSession(db: SqlExecutor, sessionId: string): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM memory_session_pages WHERE session_id = $1`, [sessionId])
  return rowCount ?? 0
}
