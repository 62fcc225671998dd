import type { Database } from '../../db/index.js'
import { BrainCommand } from '../brain-command.js'

/** OAuth client commands open their own connection to the server engine and close it when done. */
export abstract class AuthCommand extends BrainCommand {
  protected async withTokenTable<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const config = await this.loadConfig()
    this.refuseThinClient(config)
    const { openDatabase } = await import('../../db/open.js')
    const { assertTokenTable } = await import('../../auth/index.js')
    const db = await openDatabase(config.engine)
    try {
      assertTokenTable(db)
      return await fn(db)
    } finally {
      await db.close()
    }
  }
}
