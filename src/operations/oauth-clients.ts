import { z } from 'zod'
import type { Database } from '../db/index.js'
import type { OAuthClient } from '../oauth/index.js'
import type { JsonCamelCased } from '../util/index.js'
import type { OperationContext } from './context.js'
import { defineOperation, type Operation } from './operation.js'

/** The client table, which only the server engine has (beside the token table). */
async function clientTable(ctx: OperationContext): Promise<Database> {
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

export const oauthClientTools: Operation[] = [listClientsTool, revokeClientTool]
