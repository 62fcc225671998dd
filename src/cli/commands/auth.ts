import { Command, Option } from 'clipanion'
import type { Database } from '../../db/types.js'
import type { TokenInfo } from '../../auth/index.js'
import { BrainCommand } from '../brain-command.js'

function tokenLine(t: TokenInfo): string {
  const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : 'never used'
  return `${String(t.id).padStart(4)}  ${t.name.padEnd(20)}  ${t.scopes.join(',').padEnd(10)}  ${state}`
}

/** Token commands open their own connection to the server engine and close it when done. */
export abstract class AuthCommand extends BrainCommand {
  protected async withTokenTable<T>(fn: (db: Database) => Promise<T>): Promise<T> {
    const config = await this.loadConfig()
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

export class AuthCreateCommand extends AuthCommand {
  static override paths = [['auth', 'create']]
  static override usage = Command.Usage({
    description: 'Create an access token for `serve --http` and print it once',
    details:
      'Only a hash of the token is stored: copy it now. Scopes: read (search, get, list), write (put, capture, delete, tag, sync, jobs, POST /ingest) and admin (the /admin/events feed). Server engine only.',
    examples: [['A read-only token', '$0 auth create dashboard --scopes read']],
  })
  name = Option.String({ required: true })
  scopes = Option.String('--scopes', { description: 'read, write, admin, comma-separated (default read,write)' })
  source = Option.String('--source', { description: 'Limit the token to one source: it then reaches only recall and remember, with that source' })

  protected async run(): Promise<number> {
    const { createToken, parseScopes } = await import('../../auth/index.js')
    const scopes = parseScopes(this.scopes)
    const source = this.source?.trim() || null
    const { token, info } = await this.withTokenTable((db) => createToken(db, this.name, scopes, source))
    const limited = info.sourceId ? `, limited to source ${info.sourceId}` : ''
    this.print({ ...info, token }, () => `${token}\n(token ${info.name}, id ${info.id}, scopes ${info.scopes.join(',')}${limited}; shown once, only its hash is stored)`)
    return 0
  }
}

export class AuthListCommand extends AuthCommand {
  static override paths = [['auth', 'list']]
  static override usage = Command.Usage({ description: 'List access tokens (names, scopes, last use; never the tokens)' })

  protected async run(): Promise<number> {
    const { listTokens } = await import('../../auth/index.js')
    const tokens = await this.withTokenTable((db) => listTokens(db))
    this.print(tokens, () => (tokens.length === 0 ? 'No tokens; create one with `brain auth create <name>`.' : tokens.map(tokenLine).join('\n')))
    return 0
  }
}

export class AuthRevokeCommand extends AuthCommand {
  static override paths = [['auth', 'revoke']]
  static override usage = Command.Usage({ description: 'Revoke an access token by name or id; later requests with it get 401' })
  nameOrId = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { revokeToken } = await import('../../auth/index.js')
    const info = await this.withTokenTable((db) => revokeToken(db, this.nameOrId))
    this.print(info, () => `revoked ${info.name} (id ${info.id})`)
    return 0
  }
}
