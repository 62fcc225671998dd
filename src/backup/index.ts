/**
 * Backups of a brain (`brain backup`, `brain restore`, `brain repair`): the backup file and its
 * manifest, making, listing and pruning backups, restoring one in place of the database, repairing
 * an embedded brain that no longer opens, the autopilot's backup settings and how fresh the newest
 * backup is. The database seam supplies only the engine's consistent copy and the open check.
 * May import: config, db, errors, releases/version.
 */
export { openBackupFile, BACKUP_FORMAT, BACKUP_FORMAT_VERSION, BACKUP_EXTENSION, writeBackupFile, type BackupMember, type OpenedBackup } from './archive.js'
export { backupsDir, listBackups, createBackup, pruneBackups, readBrainState, type BackupPlace, type BackupListing, type BrainState } from './backups.js'
export { backupPlace } from './place.js'
export { restoreBackup, type RestoreResult } from './restore.js'
export { repairBrain, type RepairResult } from './repair.js'
export { backupSettings, normalizeBackupValue, BACKUP_DEFAULTS, BACKUP_CONFIG_KEYS, type BackupSettings } from './settings.js'
export { backupFreshness, type BackupFreshness } from './freshness.js'
