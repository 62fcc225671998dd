import { DB_CONFIG_DEFAULTS, parseDurationMs, readConfigValue } from '../config/index.js'
import type { Database, SqlExecutor } from '../db/index.js'
import { ConfigError } from '../errors/index.js'
import { purgeTrash } from './trash.js'

export interface HistorySettings {
  /** `history.max_versions`: versions kept per page, newest first. */
  maxVersions: number
  /** `history.trash_retention`: how long a deleted page waits in the trash. */
  trashRetentionMs: number
  /** `history.version_code`: code pages are versioned too (git usually holds their history). */
  versionCode: boolean
}

export const HISTORY_DEFAULTS: HistorySettings = {
  maxVersions: Number(DB_CONFIG_DEFAULTS['history.max_versions']),
  trashRetentionMs: parseDurationMs('history.trash_retention', DB_CONFIG_DEFAULTS['history.trash_retention'], 0),
  versionCode: DB_CONFIG_DEFAULTS['history.version_code'] === 'true',
}

/** The history keys of the brain's config table, defaults where unset. */
export async function historySettings(db: SqlExecutor): Promise<HistorySettings> {
  const { rows } = await db.query<{ key: string; value: string }>(`SELECT key, value FROM config WHERE key IN ('history.max_versions', 'history.trash_retention', 'history.version_code')`)
  const value = (key: string) => rows.find((r) => r.key === key)?.value
  const rawMax = value('history.max_versions')
  const maxVersions = rawMax === undefined ? HISTORY_DEFAULTS.maxVersions : Number(rawMax)
  if (!Number.isInteger(maxVersions) || maxVersions < 1) {
    throw new ConfigError('invalid_history_max_versions', `history.max_versions=${rawMax} is not a whole number of at least 1.`, { hint: 'brain config set history.max_versions 100' })
  }
  return {
    maxVersions,
    trashRetentionMs: parseDurationMs('history.trash_retention', value('history.trash_retention'), HISTORY_DEFAULTS.trashRetentionMs),
    versionCode: value('history.version_code') === 'true',
  }
}

/** Whether a code page's overwrite keeps a version (`history.version_code`). */
export async function versionsCode(db: SqlExecutor): Promise<boolean> {
  return (await readConfigValue(db, 'history.version_code')) === 'true'
}

export interface PruneResult {
  versions_pruned: number
  trash_purged: number
}

/** Retention: versions beyond `history.max_versions` per page, trash older than its retention. */
export async function pruneHistory(db: Database, settings?: HistorySettings): Promise<PruneResult> {
  const { maxVersions, trashRetentionMs } = settings ?? (await historySettings(db))
  const pruned = await db.query(
    `DELETE FROM page_versions v
     USING (SELECT page_id, max(number) AS top FROM page_versions GROUP BY page_id HAVING count(*) > $1) m
     WHERE v.page_id = m.page_id AND v.number <= m.top - $1`,
    [maxVersions],
  )
  // A retention of 0 ("off") keeps the trash until it is purged by hand.
  const purged = trashRetentionMs > 0 ? await purgeTrash(db, trashRetentionMs) : { purged: 0 }
  return { versions_pruned: pruned.rowCount, trash_purged: purged.purged }
}

export interface HistorySpace {
  versions: number
  version_bytes: number
  trashed_pages: number
  trash_bytes: number
}

/** What history and the trash hold, in rows and bytes of stored text. */
export async function historySpace(db: SqlExecutor): Promise<HistorySpace> {
  const { rows } = await db.query<{ versions: number; version_bytes: string; trashed: number; trash_bytes: string }>(
    `SELECT (SELECT count(*)::int FROM page_versions) AS versions,
            (SELECT coalesce(sum(bytes), 0)::text FROM page_versions) AS version_bytes,
            (SELECT count(*)::int FROM page_trash) AS trashed,
            (SELECT coalesce(sum(octet_length(snapshot::text)), 0)::text FROM page_trash) AS trash_bytes`,
  )
  const row = rows[0]!
  return { versions: row.versions, version_bytes: Number(row.version_bytes), trashed_pages: row.trashed, trash_bytes: Number(row.trash_bytes) }
}
