import { Command, Option } from 'clipanion'
import { AuthCommand } from './auth.js'

export class AuthClientsRegisterCommand extends AuthCommand {
  static override paths = [['auth', 'clients', 'register']]
  static override usage = Command.Usage({
    description: 'Pre-register an OAuth client with a fixed client id and secret (the secret is printed once)',
    details: [
      'For hosted connectors that want a client id and secret, and for machine clients (a daemon posting to /ingest) that use the client_credentials grant.',
      'With --redirect-uri (https, or http on a loopback address; repeatable) the client may also use the authorization code flow with PKCE and refresh tokens.',
      'Scopes: read, write, admin (default read,write). --public registers a client without a secret (authorization code with PKCE only). Server engine only.',
    ].join(' '),
    examples: [
      ['A hosted agent product', '$0 auth clients register assistant --redirect-uri https://agent.example/oauth/callback'],
      ['A daemon that posts to /ingest', '$0 auth clients register inbox-daemon --scopes write'],
    ],
  })
  name = Option.String({ required: true })
  redirectUris = Option.Array('--redirect-uri', [], { description: 'Where the authorization code may be sent (repeatable)' })
  scopes = Option.String('--scopes', { description: 'read, write, admin, comma-separated (default read,write)' })
  public = Option.Boolean('--public', false, { description: 'No secret: a public client of the authorization code flow' })

  protected async run(): Promise<number> {
    const { parseScopes } = await import('../../auth/index.js')
    const { registerClient } = await import('../../oauth/index.js')
    const scopes = parseScopes(this.scopes)
    const interactive = this.redirectUris.length > 0
    const grantTypes = [...(interactive ? (['authorization_code', 'refresh_token'] as const) : []), ...(this.public ? [] : (['client_credentials'] as const))]
    const { client, clientSecret } = await this.withTokenTable((db) =>
      registerClient(db, { name: this.name, redirectUris: this.redirectUris, scopes, grantTypes, authMethod: this.public ? 'none' : 'client_secret_basic', registeredBy: 'cli' }),
    )
    this.print({ ...client, clientSecret }, () =>
      [
        `client_id      ${client.clientId}`,
        ...(clientSecret ? [`client_secret  ${clientSecret}`] : []),
        `(client ${client.name}, scopes ${client.scopes.join(',')}, grants ${client.grantTypes.join(',')}${clientSecret ? '; the secret is shown once, only its hash is stored' : ''})`,
      ].join('\n'),
    )
    return 0
  }
}
