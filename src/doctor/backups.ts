import { backupFreshness } from '../backup/index.js'
import type { Database } from '../db/index.js'
import { check, type DoctorCheck } from './types.js'

/** The newest backup's age against `backup.interval`, as the backup folder judges it. */
export async function checkBackups(db: Database, home: string, now = Date.now()): Promise<DoctorCheck> {
  const { status, message } = await backupFreshness(db, home, now)
  return check('backups', status, message)
}
