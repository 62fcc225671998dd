import * as z from 'zod'
import { TOKEN_SCOPES, type TokenInfo, type TokenScope } from '../auth/index.js'
import type { Database } from '../db/index.js'
import type { RequestLogRow } from '../activity/index.js'
import type { DoctorReport } from '../doctor/index.js'
import { toSnakeCaseKeys, type JsonCamelCased } from '../util/index.js'
import type { CallContext } from './call-context.js'
import { defineOperation, type Operation } from './operation.js'

/**
 * What an operator runs and reads: doctor, workers, supervisor events, access tokens and the
 * request log. All need the admin scope over HTTP; local callers may run them all.
 */

const STATUS_LABEL = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const

function doctorText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length))
  const lines = report.checks.map((c) => `${STATUS_LABEL[c.status]}  ${c.name.padEnd(width)}  ${c.message}`)
  return [...lines, `brain doctor: ${report.status}`].join('\n')
}

const runDoctorTool = defineOperation({
  name: 'run_doctor',
  description:
    "Run the brain's health checks (database, schema, pgvector, embeddings coverage, queue and workers, service, sources, history, version migrations, and for a local caller the coding agents brain is installed in). Returns {status, checks: [{name, status: ok|warn|fail, message}]}.",
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx): Promise<DoctorReport> {
    const [{ runDoctor }, { currentVersion }, { brainIsConfigured }] = await Promise.all([import('../doctor/index.js'), import('../releases/version/index.js'), import('../frontmatter/index.js')])
    // The database is a check of its own: it is opened inside runDoctor, never before.
    const config = ctx.config ? await ctx.config() : (await ctx.brain()).config
    // The coding agents are the local caller's, read from its home and working directory.
    const agents = ctx.remote || ctx.local === undefined ? undefined : ctx.local
    return runDoctor({ config, version: currentVersion(), brainConfigured: brainIsConfigured(config), withBrain: async (fn) => fn((await ctx.brain()).db), ...(agents ? { agents } : {}) })
  },
  present: { text: doctorText },
  cli: {
    path: ['doctor'],
    description: "Check the brain's health: database, schema, pgvector, embeddings, queue, service or lock, sources, version migrations, coding agents",
    details: [
      'Each check reports ok, warn or fail with a message that says what to do; the overall status is the worst of them. Exit code 1 when any check fails.',
      'The database is tried once, without connect retries, so an unreachable server is reported at once.',
      "Each coding agent brain is installed in (user scope, and the project scope of the current directory) is a check: whether the command its entry starts runs, and whether its client still needs the project's MCP server approved or the folder trusted.",
    ].join('\n\n'),
    examples: [
      ['Check', '$0 doctor'],
      ['For an agent', '$0 doctor --json'],
    ],
    options: [],
    exitCode: (report) => (report.status === 'fail' ? 1 : 0),
    connectOnce: true,
  },
})

const listWorkersTool = defineOperation({
  name: 'list_workers',
  description: 'List the processes registered with the job queue (`brain jobs work` workers and inline runners): pid, host, job names, concurrency, last heartbeat and the jobs they run.',
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx) {
    const { listWorkers } = await import('../activity/index.js')
    return { workers: await listWorkers((await ctx.brain()).db) }
  },
  present: {
    text: (r) =>
      r.workers.length === 0
        ? 'No workers.'
        : r.workers.map((w) => `${w.kind.padEnd(6)}  pid ${w.pid} on ${w.host}  ${w.names.join(',')}  ×${w.concurrency}  heartbeat ${w.silentSeconds}s ago  active ${w.activeJobs.length}`).join('\n'),
  },
  cli: { path: ['jobs', 'workers'], description: 'List the workers registered with the job queue', options: [] },
})

/** The fields of an event beyond when, which supervisor and what, as `key=value`. */
function eventDetails(event: Record<string, unknown>): string {
  // Named as the event file names them, whatever casing the result travelled in.
  return Object.entries(toSnakeCaseKeys(event) as Record<string, unknown>)
    .filter(([key]) => key !== 'ts' && key !== 'supervisor' && key !== 'event')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ')
}

/** One event on one line: time, supervisor, event, details. */
export function supervisorEventLine(event: { ts: string; supervisor: string; event: string }): string {
  const details = eventDetails(event as Record<string, unknown>)
  return `${event.ts}  ${event.supervisor.padEnd(6)}  ${event.event}${details ? `  ${details}` : ''}`
}

export const listSupervisorEventsTool = defineOperation({
  name: 'list_supervisor_events',
  description:
    "The newest events of the jobs and ingest supervisors (worker started, exited, restart scheduled, health warnings …), read from their event files in the brain's home. Returns {events: [{supervisor, ts, event, …}]}, oldest first.",
  input: z.strictObject({
    limit: z.number().int().min(1).max(1000).optional().describe('At most this many (default 100)'),
    since: z.iso.datetime({ offset: true }).optional().describe('Only events at or after this ISO 8601 time'),
  }),
  mutating: false,
  admin: true,
  async run(ctx, args) {
    const { readRecentEvents } = await import('../activity/index.js')
    // The events are files in the brain's home: reading them needs no database.
    const config = ctx.config ? await ctx.config() : (await ctx.brain()).config
    return { events: await readRecentEvents(config.home, args.limit ?? 100, args.since === undefined ? undefined : new Date(args.since).toISOString()) }
  },
  present: { text: (r) => (r.events.length === 0 ? 'No supervisor events.' : r.events.map(supervisorEventLine).join('\n')) },
})

/** A token as every surface shows it: dates as ISO text, never the token or its hash. */
function shownToken(info: TokenInfo) {
  const iso = (d: Date | null) => (d === null ? null : d.toISOString())
  return { id: info.id, name: info.name, scopes: info.scopes, source_id: info.sourceId, created_at: iso(info.createdAt), last_used_at: iso(info.lastUsedAt), revoked_at: iso(info.revokedAt) }
}

/** The token table, which only the server engine has. */
async function tokenTable(ctx: CallContext): Promise<Database> {
  const { assertTokenTable } = await import('../auth/index.js')
  const { db } = await ctx.brain()
  assertTokenTable(db)
  return db
}

function tokenLine(t: JsonCamelCased<ReturnType<typeof shownToken>>): string {
  const state = t.revokedAt ? `revoked ${t.revokedAt}` : t.lastUsedAt ? `last used ${t.lastUsedAt}` : 'never used'
  return `${String(t.id).padStart(4)}  ${t.name.padEnd(20)}  ${t.scopes.join(',').padEnd(10)}  ${state}`
}

const scopes = z.array(z.enum(TOKEN_SCOPES)).min(1).max(3)

const listTokensTool = defineOperation({
  name: 'list_tokens',
  description: 'List the access tokens of the server engine: id, name, scopes, created, last used, revoked. Never the tokens themselves.',
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx) {
    const { listTokens } = await import('../auth/index.js')
    return { tokens: (await listTokens(await tokenTable(ctx))).map(shownToken) }
  },
  present: {
    json: (r) => r.tokens,
    text: (r) => (r.tokens.length === 0 ? 'No tokens; create one with `brain auth create <name>`.' : r.tokens.map(tokenLine).join('\n')),
  },
  cli: { path: ['auth', 'list'], description: 'List access tokens (names, scopes, last use; never the tokens)', options: [] },
})

const createTokenTool = defineOperation({
  name: 'create_token',
  description: 'Create an access token for the server engine. The token is in this answer only; the brain keeps just its hash.',
  input: z.strictObject({
    name: z.string().trim().min(1).max(100),
    scopes: scopes.optional().describe('Default ["read","write"]'),
    source: z.string().trim().min(1).max(200).optional().describe('Limit the token to this source: it then reaches only recall and remember, with this source'),
  }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { createToken } = await import('../auth/index.js')
    const wanted: TokenScope[] = args.scopes ?? ['read', 'write']
    const { token, info } = await createToken(await tokenTable(ctx), args.name, wanted, args.source ?? null)
    return { ...shownToken(info), token }
  },
  present: {
    text: (r) => {
      const limited = r.sourceId ? `, limited to source ${r.sourceId}` : ''
      return `${r.token}\n(token ${r.name}, id ${r.id}, scopes ${r.scopes.join(',')}${limited}; shown once, only its hash is stored)`
    },
  },
  cli: {
    path: ['auth', 'create'],
    description: 'Create an access token for `serve --http` and print it once',
    details:
      'Only a hash of the token is stored: copy it now. Scopes: read (search, get, list), write (put, capture, delete, tag, sync, jobs, POST /ingest) and admin (the /admin/events feed). Server engine only.',
    examples: [['A read-only token', '$0 auth create dashboard --scopes read']],
    positional: { field: 'name', required: true },
    options: [
      { field: 'scopes', flag: '--scopes', kind: 'list', description: 'read, write, admin, comma-separated (default read,write)' },
      { field: 'source', flag: '--source', kind: 'string', description: 'Limit the token to one source: it then reaches only recall and remember, with that source' },
    ],
  },
})

const revokeTokenTool = defineOperation({
  name: 'revoke_token',
  description: 'Revoke an access token by name or id; requests with it get 401 from then on.',
  input: z.strictObject({ token: z.string().trim().min(1).max(100).describe('The token name or id') }),
  mutating: true,
  admin: true,
  async run(ctx, args) {
    const { revokeToken } = await import('../auth/index.js')
    return shownToken(await revokeToken(await tokenTable(ctx), args.token))
  },
  present: { text: (r) => `revoked ${r.name} (id ${r.id})` },
  cli: {
    path: ['auth', 'revoke'],
    description: 'Revoke an access token by name or id; later requests with it get 401',
    positional: { field: 'token', label: 'nameOrId', required: true },
    options: [],
  },
})

function requestLine(r: JsonCamelCased<RequestLogRow>): string {
  const who = r.tokenName ?? (r.oauthClientId ? `oauth:${r.oauthClientId}` : '-')
  // method is what was asked of the route: an MCP method (tools/call) or an HTTP verb.
  const what = [r.method, r.toolName].filter((part) => part !== null && part !== '').join(' ')
  const took = r.durationMs === null ? '' : `  ${r.durationMs} ms`
  return `${r.createdAt}  ${r.status}  ${r.route}  ${what || '-'}  ${who}${r.errorCode ? `  ${r.errorCode}` : ''}${took}`
}

const listRequestsTool = defineOperation({
  name: 'list_requests',
  description: 'The HTTP request log of the server engine, newest first: when, token or OAuth client, route, tool, status, error code and duration. Never a token or a body.',
  input: z.strictObject({
    limit: z.number().int().min(1).max(1000).optional().describe('At most this many (default 100)'),
    errors_only: z.boolean().optional().describe('Only requests that failed (status 400 and above)'),
    route: z.string().max(200).optional().describe('Only this route, e.g. /mcp'),
  }),
  mutating: false,
  admin: true,
  async run(ctx, args) {
    const { listRequests } = await import('../activity/index.js')
    return { requests: await listRequests((await ctx.brain()).db, { limit: args.limit ?? 100, errorsOnly: args.errors_only, route: args.route }) }
  },
  present: { text: (r) => (r.requests.length === 0 ? 'No requests logged.' : r.requests.map(requestLine).join('\n')) },
  cli: {
    path: ['requests'],
    description: 'The HTTP request log of `serve --http`, newest first (server engine; admin scope on a thin client)',
    details: 'One line per request: when, status, route, what was asked of it (an MCP method and tool), the token or OAuth client, the error code and the duration. Never a token or a body.',
    examples: [
      ['The last failures', '$0 requests --errors-only --limit 20'],
      ['Only MCP calls', '$0 requests --route /mcp'],
    ],
    options: [
      { field: 'limit', flag: '--limit', kind: 'integer', description: 'At most this many (default 100)' },
      { field: 'errors_only', flag: '--errors-only', kind: 'boolean', description: 'Only requests that failed (status 400 and above)' },
      { field: 'route', flag: '--route', kind: 'string', description: 'Only this route, e.g. /mcp' },
    ],
  },
})

export const operateTools: Operation[] = [runDoctorTool, listWorkersTool, listSupervisorEventsTool, listTokensTool, createTokenTool, revokeTokenTool, listRequestsTool]
