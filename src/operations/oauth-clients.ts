import * as z from 'zod'
import type { Database } from '../db/index.js'
import type { OAuthClient } from '../oauth/index.js'
import type { JsonCamelCased } from '../util/index.js'
import type { CallContext } from './call-context.js'
import { defineOperation, type Operation } from './operation.js'

/** The client table, which only the server engine has (beside the token table). */
async function clientTable(ctx: CallContext): Promise<Database> {
  const { assertTokenTable } = await import('../auth/index.js')
  const { db } = await ctx.brain()
  assertTokenTable(db)
  return db
}

function clientLine(c: JsonCamelCased<OAuthClient>): string {
  const state = c.revokedAt ? `revoked ${c.revokedAt}` : `since ${c.createdAt}`
  return `${c.clientId}  ${c.name.padEnd(20)}  ${c.scopes.join(',').padEnd(16)}  ${c.registeredBy.padEnd(7)}  ${state}`
}

const listClientsTool = defineOperation({
  name: 'list_oauth_clients',
  description:
    'List the OAuth clients of the server engine (registered dynamically or by `brain auth clients register`): id, name, redirect URIs, scopes, grants, created, revoked. Never their secrets.',
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx) {
    const { listClients } = await import('../oauth/index.js')
    return { clients: await listClients(await clientTable(ctx)) }
  },
  present: {
    json: (r) => r.clients,
    text: (r) => (r.clients.length === 0 ? 'No OAuth clients; register one with `brain auth clients register <name>`.' : r.clients.map(clientLine).join('\n')),
  },
  cli: { path: ['auth', 'clients', 'list'], description: 'List OAuth clients (registered dynamically or by `auth clients register`; never their secrets)', options: [] },
})

const revokeClientTool = defineOperation({
  name: 'revoke_oauth_client',
  description: 'Revoke an OAuth client of the server engine and every token it holds; its requests get 401 from then on. Returns the client record.',
  input: z.strictObject({ client_id: z.string().trim().min(1).max(200).describe('The client id (`brain auth clients list`)') }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { revokeClient } = await import('../oauth/index.js')
    return { ...(await revokeClient(await clientTable(ctx), args.client_id)) }
  },
  present: { text: (client) => `revoked ${client.name} (${client.clientId}) and its tokens` },
  cli: {
    path: ['auth', 'clients', 'revoke'],
    description: 'Revoke an OAuth client and every token it holds; its requests get 401 from then on',
    positional: { field: 'client_id', required: true, label: 'clientId' },
    options: [],
  },
})

const registerClientTool = defineOperation({
  name: 'register_oauth_client',
  description:
    'Pre-register an OAuth client of the server engine with a fixed client id and secret, for a hosted connector or a machine client (client_credentials). With redirect_uris it may also use the authorization code flow with PKCE; public registers one without a secret. Returns the client record and its secret, which is shown this once (only its hash is stored).',
  input: z.strictObject({
    name: z.string().trim().min(1).max(200).describe('What the client is called in lists and audit lines'),
    redirect_uris: z.array(z.string().trim().min(1).max(2000)).max(20).optional().describe('Where the authorization code may be sent (https, or http on a loopback address)'),
    scopes: z.string().trim().max(100).optional().describe('read, write, admin, comma-separated (default read,write)'),
    public: z.boolean().optional().describe('No secret: a public client of the authorization code flow (default false)'),
  }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { parseScopes } = await import('../auth/index.js')
    const { registerClient } = await import('../oauth/index.js')
    const redirectUris = args.redirect_uris ?? []
    const isPublic = args.public === true
    const grantTypes = [...(redirectUris.length > 0 ? (['authorization_code', 'refresh_token'] as const) : []), ...(isPublic ? [] : (['client_credentials'] as const))]
    const { client, clientSecret } = await registerClient(await clientTable(ctx), {
      name: args.name,
      redirectUris,
      scopes: parseScopes(args.scopes),
      grantTypes,
      authMethod: isPublic ? 'none' : 'client_secret_basic',
      // Pre-registered by an operator, whichever door they used; 'dynamic' is the HTTP registration endpoint's.
      registeredBy: 'cli',
    })
    return { ...client, clientSecret }
  },
  present: {
    text: (c) =>
      [
        `client_id      ${c.clientId}`,
        ...(c.clientSecret ? [`client_secret  ${c.clientSecret}`] : []),
        `(client ${c.name}, scopes ${c.scopes.join(',')}, grants ${c.grantTypes.join(',')}${c.clientSecret ? '; the secret is shown once, only its hash is stored' : ''})`,
      ].join('\n'),
  },
  cli: {
    path: ['auth', 'clients', 'register'],
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
    positional: { field: 'name', required: true },
    options: [
      { field: 'redirect_uris', flag: '--redirect-uri', kind: 'list', description: 'Where the authorization code may be sent (repeatable)' },
      { field: 'scopes', flag: '--scopes', kind: 'string', description: 'read, write, admin, comma-separated (default read,write)' },
      { field: 'public', flag: '--public', kind: 'boolean', description: 'No secret: a public client of the authorization code flow' },
    ],
  },
})

export const oauthClientTools: Operation[] = [listClientsTool, registerClientTool, revokeClientTool]
