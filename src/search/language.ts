import { DB_CONFIG_DEFAULTS } from '../config/index.js'
import type { Database } from '../db/index.js'
import { ValidationError } from '../errors/index.js'

/** The config key holding the brain-wide text-search configuration. */
export const SEARCH_LANGUAGE_KEY = 'search.language' as const
export const DEFAULT_SEARCH_LANGUAGE = DB_CONFIG_DEFAULTS[SEARCH_LANGUAGE_KEY]
const BATCH = 500

export interface ReindexProgress {
  table: 'pages' | 'content_chunks'
  done: number
  total: number
}

/** The configured text-search configuration (the value triggers and queries read). */
export async function getSearchLanguage(db: Database): Promise<string> {
  const { rows } = await db.query<{ language: string }>('SELECT brain_search_language()::text AS language')
  return rows[0]?.language ?? DEFAULT_SEARCH_LANGUAGE
}

/** Text-search configurations this engine offers (pg_ts_config), sorted. */
export async function listSearchLanguages(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>('SELECT cfgname::text AS name FROM pg_ts_config ORDER BY cfgname')
  return rows.map((r) => r.name)
}

/**
 * Sets search.language and rebuilds every stored search vector with it, in batches, each in its
 * own transaction. Rewriting the indexed column fires the vector triggers and the statement-level
 * BM25 statistics triggers, so the statistics stay exact without a separate pass.
 */
export async function setSearchLanguage(db: Database, language: string, onProgress?: (p: ReindexProgress) => void): Promise<{ language: string; pages: number; chunks: number }> {
  const available = await listSearchLanguages(db)
  if (!available.includes(language)) {
    throw new ValidationError('unknown_search_language', `No text-search configuration named "${language}"`, { hint: `Choose one of: ${available.join(', ')}` })
  }
  await db.query(
    `INSERT INTO config (key, value) VALUES ($1, $2)
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [SEARCH_LANGUAGE_KEY, language],
  )
  const pages = await rewrite(db, 'pages', 'title = title', onProgress)
  const chunks = await rewrite(db, 'content_chunks', 'chunk_text = chunk_text', onProgress)
  return { language, pages, chunks }
}

async function rewrite(db: Database, table: 'pages' | 'content_chunks', touch: string, onProgress?: (p: ReindexProgress) => void): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`)
  const total = Number(rows[0]?.n ?? 0)
  let done = 0
  let after = 0
  onProgress?.({ table, done, total })
  for (;;) {
    const batch = await db.query<{ last: string | null; n: string }>(
      `WITH ids AS (SELECT id FROM ${table} WHERE id > $1 ORDER BY id LIMIT ${BATCH}),
            upd AS (UPDATE ${table} t SET ${touch} FROM ids WHERE t.id = ids.id RETURNING t.id)
       SELECT max(id)::text AS last, count(*)::text AS n FROM upd`,
      [after],
    )
    const n = Number(batch.rows[0]?.n ?? 0)
    if (n === 0) break
    done += n
    after = Number(batch.rows[0]!.last)
    onProgress?.({ table, done, total })
  }
  return done
}
