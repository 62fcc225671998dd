import { parseDurationMs } from '../config/index.js'
import type { SqlExecutor } from '../db/index.js'
import { ConfigError } from '../errors/index.js'

/** The autopilot's backups: `backup.keep` and `backup.interval` in the brain's config table. */
export interface BackupSettings {
  /** Routine backups kept; older ones are pruned after each new one. */
  keep: number
  /** How often the autopilot backs up (0: every cycle); doctor warns past twice this. */
  intervalMs: number
}

export const BACKUP_DEFAULTS: BackupSettings = { keep: 7, intervalMs: 86_400_000 }

export const BACKUP_CONFIG_KEYS = ['backup.keep', 'backup.interval'] as const

/** Checks a value before `brain config set` stores it; returns it as stored. */
export function normalizeBackupValue(key: string, value: string): string {
  if (key === 'backup.keep') {
    const keep = Number(value.trim())
    if (!Number.isInteger(keep) || keep < 1) throw new ConfigError('invalid_backup_keep', `backup.keep=${value} is not a whole number of at least 1.`, { hint: 'brain config set backup.keep 7' })
    return String(keep)
  }
  if (key === 'backup.interval') {
    parseDurationMs('backup.interval', value, BACKUP_DEFAULTS.intervalMs)
    return value.trim()
  }
  return value
}

/** The backup keys of the brain's config table, defaults where unset. */
export async function backupSettings(db: SqlExecutor): Promise<BackupSettings> {
  const { rows } = await db.query<{ key: string; value: string }>(`SELECT key, value FROM config WHERE key IN ('backup.keep', 'backup.interval')`)
  const value = (key: string): string | undefined => rows.find((r) => r.key === key)?.value
  const rawKeep = value('backup.keep')
  return {
    keep: rawKeep === undefined ? BACKUP_DEFAULTS.keep : Number(normalizeBackupValue('backup.keep', rawKeep)),
    intervalMs: parseDurationMs('backup.interval', value('backup.interval'), BACKUP_DEFAULTS.intervalMs),
  }
}
