import type { SqlExecutor } from '../db/index.js'
import { historySettings, historySpace } from '../history/index.js'
import { check, type DoctorCheck } from './types.js'

function size(bytes: number): string {
  return bytes < 1048576 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1048576).toFixed(1)} MiB`
}

/** What page history and the trash hold, against their retention settings. */
export async function checkHistory(db: SqlExecutor): Promise<DoctorCheck> {
  const space = await historySpace(db)
  const settings = await historySettings(db)
  const days = Math.round(settings.trashRetentionMs / 86_400_000)
  return check(
    'history',
    'ok',
    `${space.versions} page versions (${size(space.version_bytes)}), ${space.trashed_pages} pages in the trash (${size(space.trash_bytes)}); ` +
      `keeping ${settings.maxVersions} versions per page, trash for ${settings.trashRetentionMs > 0 ? `${days} days` : 'ever'}`,
  )
}
