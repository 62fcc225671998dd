/**
 * The start of a conversation, or its new start after the harness compacted its context: what
 * the active source holds, told to the agent once, and (fresh) a clean slate of what recall
 * volunteered, since a compacted conversation no longer holds those pages.
 */
import type { SqlExecutor } from '../db/index.js'
import { NotFoundError } from '../errors/index.js'
import { DEFAULT_SOURCE_ID } from '../pages/types.js'
import { forgetSession } from './sessions.js'

export interface SessionStartInput {
  sessionId?: string | null
  sourceId?: string | null
  /** The conversation lost its context: forget what it was told. */
  fresh?: boolean
}

export interface SessionStart {
  source_id: string
  pages: number
  by_type: Array<{ type: string; pages: number }>
  session: string | null
  /** Items the session had been told and no longer counts as told. */
  forgotten: number
}

export async function startSession(db: SqlExecutor, input: SessionStartInput): Promise<SessionStart> {
  const sourceId = input.sourceId ?? DEFAULT_SOURCE_ID
  const session = input.sessionId ?? null
  const { rows } = await db.query<{ type: string | null; pages: number | string; known: boolean }>(
    `SELECT t.type, t.pages, true AS known FROM (SELECT type, count(*) AS pages FROM pages WHERE source_id = $1 GROUP BY type) t
     WHERE EXISTS (SELECT 1 FROM sources WHERE id = $1)
     UNION ALL SELECT NULL, 0, EXISTS (SELECT 1 FROM sources WHERE id = $1)`,
    [sourceId],
  )
  if (!rows.some((r) => r.known)) {
    throw new NotFoundError('source_not_found', `No source "${sourceId}".`, { hint: 'List sources with `brain sources list`, or add one with `brain sources add`.' })
  }
  const byType = rows
    .filter((r): r is { type: string; pages: number | string; known: boolean } => r.type !== null)
    .map((r) => ({ type: r.type, pages: Number(r.pages) }))
    .sort((a, b) => b.pages - a.pages || a.type.localeCompare(b.type))
  const forgotten = input.fresh === true && session !== null ? await forgetSession(db, session) : 0
  return { source_id: sourceId, pages: byType.reduce((n, t) => n + t.pages, 0), by_type: byType, session, forgotten }
}
