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

/** Records what was just volunteered and drops every expired row of any session. */
export async function recordVolunteered(db: SqlExecutor, sessionId: string, sourceId: string, items: readonly string[]): Promise<void> {
  if (items.length === 0) return
  await db.query(
    `WITH gone AS (DELETE FROM memory_session_pages WHERE expires_at <= now())
     INSERT INTO memory_session_pages (session_id, source_id, item, volunteered_at, expires_at)
     SELECT $1, $2, x, now(), now() + make_interval(hours => $4::int) FROM unnest($3::text[]) AS x
     ON CONFLICT (session_id, source_id, item) DO UPDATE SET volunteered_at = EXCLUDED.volunteered_at, expires_at = EXCLUDED.expires_at`,
    [sessionId, sourceId, [...items], SESSION_TTL_HOURS],
  )
}
