import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { migrate } from './migrate.js'
import type { Database, EngineConfig } from './types.js'

export interface OpenOptions {
  /** Apply pending migrations after connecting (default true). */
  migrate?: boolean
  onRetry?: (attempt: number, delayMs: number, err: unknown) => void
}

/** Opens the configured engine; the only place that chooses a driver. */
export async function openDatabase(engine: EngineConfig, options: OpenOptions = {}): Promise<Database> {
  let db: Database
  if (engine.kind === 'postgres' && engine.url) {
    const { openPostgres } = await import('./pg-driver.js')
    db = await openPostgres({
      url: engine.url,
      statementTimeoutMs: engine.statementTimeoutMs,
      idleTxTimeoutMs: engine.idleTxTimeoutMs,
      clientCheckIntervalMs: engine.clientCheckIntervalMs,
      retryConnect: engine.retryConnect,
      onRetry: options.onRetry,
    })
  } else {
    const { openPglite } = await import('./pglite-driver.js')
    // A brain that does not exist yet starts from the pre-migrated snapshot when there is one.
    const fresh = !existsSync(join(engine.dataDir, 'PG_VERSION'))
    const templates = fresh ? await import('./template.js') : null
    const templateDirectory = templates?.emptyTemplateDirectory() ?? null
    const template = templates && !templateDirectory ? templates.readEmptyTemplate() : null
    const freeSpace = { dir: engine.dataDir, reserveBytes: engine.diskReserveBytes ?? 0 }
    db = await openPglite({ dataDir: engine.dataDir, freeSpace, callLimitMs: engine.statementTimeoutMs, ...(templateDirectory ? { templateDirectory } : template ? { template } : {}) })
  }
  if (options.migrate !== false) {
    try {
      await migrate(db)
    } catch (err) {
      await db.close()
      throw err
    }
  }
  return db
}
