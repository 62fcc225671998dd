import { processEnv, type Config } from '../config/index.js'
import { currentVersion } from '../releases/version/index.js'
import type { BackupPlace } from './backups.js'

/** Where backups go and what they record, from the brain's configuration. */
export function backupPlace(config: Config): BackupPlace {
  return { home: config.home, engine: config.engine, brainVersion: currentVersion(), env: processEnv() }
}
