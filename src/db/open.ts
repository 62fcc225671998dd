import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { migrate, schemaIsCurrent } from './migrate.js'
import type { Database, EngineConfig } from './types.js'

export interface OpenOptions {
  /** Apply pending migrations after connecting (default true). */
  migrate?: boolean
  onRetry?: (attempt: number, delayMs: number, err: unknown) => void
  /**
   * For a process that makes a few reads and small writes of its own and exits (an agent's hook
   * when no service runs): the embedded engine opens without pg_trgm, with a small buffer pool
   * and no call watchdog; see `brief` in pglite-driver.ts. It is opened so only on a current
   * schema: a brain that needs migrating is opened the usual way. Callers run no statement a
   * trigram index could serve on it.
   */
  brief?: boolean
  /** For a process that runs one short command and exits: the embedded engine opens with a small buffer pool. */
  smallBufferPool?: boolean
  /** Told when the embedded engine has been reopened with a larger buffer pool, its brain having outgrown the first. */
  onBufferPoolGrown?: (bytes: number) => void
}

/**
 * Starts the work of the next open that can go on while this process does other things: for the
 * embedded engine, compiling its WebAssembly on V8's background threads.
 */
export async function prepareToOpen(engine: EngineConfig): Promise<void> {
  if (engine.kind === 'postgres' && engine.url) return
  const { compilePgliteEarly } = await import('./pglite-driver.js')
  compilePgliteEarly()
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
    const bufferPool = engine.bufferPoolBytes !== undefined ? { bufferPoolBytes: engine.bufferPoolBytes } : {}
    if (options.brief && !fresh) {
      const brief = await openPglite({
        dataDir: engine.dataDir,
        freeSpace: { dir: engine.dataDir, reserveBytes: engine.diskReserveBytes ?? 0 },
        brief: true,
        ...bufferPool,
      })
      const current = await schemaIsCurrent(brief).catch(async (err: unknown) => {
        await brief.close()
        throw err
      })
      if (current) return brief
      await brief.close()
      return openDatabase(engine, { ...options, brief: false })
    }
    const templates = fresh ? await import('./template.js') : null
    const templateDirectory = templates?.emptyTemplateDirectory() ?? null
    const template = templates && !templateDirectory ? templates.readEmptyTemplate() : null
    const freeSpace = { dir: engine.dataDir, reserveBytes: engine.diskReserveBytes ?? 0 }
    db = await openPglite({
      dataDir: engine.dataDir,
      freeSpace,
      callLimitMs: engine.statementTimeoutMs,
      smallBufferPool: options.smallBufferPool === true,
      ...(options.onBufferPoolGrown ? { onPoolGrown: options.onBufferPoolGrown } : {}),
      ...bufferPool,
      ...(templateDirectory ? { templateDirectory } : template ? { template } : {}),
    })
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
