import type { Database } from '../db/index.js'
import { backupsDir, listBackups } from './backups.js'
import { backupSettings, BACKUP_DEFAULTS } from './settings.js'

function age(ms: number): string {
  if (ms < 3_600_000) return `${Math.max(0, Math.round(ms / 60_000))} min`
  if (ms < 2 * 86_400_000) return `${Math.round(ms / 3_600_000)} h`
  return `${Math.round(ms / 86_400_000)} days`
}

export interface BackupFreshness {
  status: 'ok' | 'warn'
  message: string
}

/** The newest backup's age against `backup.interval`: a warning past twice the interval. */
export async function backupFreshness(db: Database, home: string, now = Date.now()): Promise<BackupFreshness> {
  const settings = await backupSettings(db)
  const dir = backupsDir(home)
  const newest = listBackups(dir)[0]
  // An interval of 0 backs up every cycle; the warning then waits as long as it would by default.
  const interval = settings.intervalMs > 0 ? settings.intervalMs : BACKUP_DEFAULTS.intervalMs
  if (!newest) {
    // An empty brain has nothing to lose yet; a server database is commonly backed up by the server's own tools.
    const { rows } = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM pages) AS any')
    const status = db.capabilities.multiProcess || !rows[0]!.any ? 'ok' : 'warn'
    return { status, message: `no backup in ${dir}; make one with \`brain backup\` (\`brain dream\` makes one every ${age(interval)} and keeps ${settings.keep})` }
  }
  const since = now - Date.parse(newest.created_at)
  const text = `newest backup ${age(since)} old (${newest.pages} pages, ${newest.path}); backing up every ${age(interval)}, keeping ${settings.keep}`
  if (since > 2 * interval) return { status: 'warn', message: `${text}; it is overdue: run \`brain backup\`, or let \`brain dream\` run its backup phase` }
  return { status: 'ok', message: text }
}
