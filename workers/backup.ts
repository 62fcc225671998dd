import { backupPlace, backupSettings, backupsDir, createBackup, listBackups, pruneBackups } from '../src/backup/index.js'
import { NotAvailableError } from '../src/errors/index.js'
import { defineJob } from '../src/queue/index.js'

/**
 * The autopilot's backup phase: an embedded brain is backed up once per `backup.interval` into
 * `$BRAIN_HOME/backups/`, keeping the newest `backup.keep`. With `force` (the phase asked for on
 * its own) it backs up whatever the interval says.
 */
export default defineJob({
  name: 'backup',
  run: async (ctx) => {
    if (ctx.db.capabilities.multiProcess) {
      throw new NotAvailableError('backup_not_embedded', 'The autopilot backs up embedded brains; a server database is backed up with `brain backup` or the server’s own tools.')
    }
    const settings = await backupSettings(ctx.db)
    const dir = backupsDir(ctx.config.home)
    // Newest first; the worker runs only on the embedded engine, whose backups these are.
    const newest = listBackups(dir)[0]
    const age = newest ? Date.now() - Date.parse(newest.created_at) : null
    if (!ctx.data.force && age !== null && settings.intervalMs > 0 && age < settings.intervalMs) {
      throw new NotAvailableError('backup_not_due', `The newest backup (${newest!.created_at}) is younger than backup.interval.`)
    }
    const made = await createBackup(ctx.db, backupPlace(ctx.config))
    const pruned = pruneBackups(dir, settings.keep)
    return { ...made, pruned, keep: settings.keep }
  },
})
