import { z } from 'zod'
import type { TokenInfo, TokenScope } from '../auth/index.js'
import type { DoctorReport } from '../doctor/index.js'
import { defineOperation, type Operation } from './operation.js'

/**
 * What an operator runs and reads: doctor, workers, supervisor events, access tokens and the
 * request log. All need the admin scope over HTTP; local callers may run them all.
 */

const STATUS_LABEL = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const

export function doctorText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length))
  const lines = report.checks.map((c) => `${STATUS_LABEL[c.status]}  ${c.name.padEnd(width)}  ${c.message}`)
  return [...lines, `brain doctor: ${report.status}`].join('\n')
}

const runDoctorTool = defineOperation({
  name: 'run_doctor',
  description:
    "Run the brain's health checks (database, schema, pgvector, embeddings coverage, queue and workers, service, sources, history, version migrations). Returns {status, checks: [{name, status: ok|warn|fail, message}]}.",
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx): Promise<DoctorReport> {
    const [{ runDoctor }, { currentVersion }] = await Promise.all([import('../doctor/index.js'), import('../release/index.js')])
    const { config } = await ctx.brain()
    return runDoctor({ config, version: currentVersion(), brainConfigured: true, withBrain: async (fn) => fn((await ctx.brain()).db) })
  },
  present: { text: doctorText },
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

const listSupervisorEventsTool = defineOperation({
  name: 'list_supervisor_events',
  description:
    "The newest events of the jobs and ingest supervisors (worker started, exited, restart scheduled, health warnings …), read from their event files in the brain's home. Returns {events: [{supervisor, ts, event, …}]}, oldest first.",
  input: z.strictObject({ limit: z.number().int().min(1).max(1000).optional().describe('At most this many (default 100)') }),
  mutating: false,
  admin: true,
  async run(ctx, args) {
    const { readRecentEvents } = await import('../activity/index.js')
    return { events: await readRecentEvents((await ctx.brain()).config.home, args.limit ?? 100) }
  },
  present: { text: (r) => (r.events.length === 0 ? 'No supervisor events.' : r.events.map((e) => `${e.ts}  ${e.supervisor.padEnd(6)}  ${e.event}`).join('\n')) },
})

/** A token as every surface shows it: dates as ISO text, never the token or its hash. */
function shownToken(info: TokenInfo) {
  const iso = (d: Date | null) => (d === null ? null : d.toISOString())
  return { id: info.id, name: info.name, scopes: info.scopes, source_id: info.sourceId, created_at: iso(info.createdAt), last_used_at: iso(info.lastUsedAt), revoked_at: iso(info.revokedAt) }
}

const scopes = z
  .array(z.enum(['read', 'write', 'admin']))
  .min(1)
  .max(3)

const listTokensTool = defineOperation({
  name: 'list_tokens',
  description: 'List the access tokens of the server engine: id, name, scopes, created, last used, revoked. Never the tokens themselves.',
  input: z.strictObject({}),
  mutating: false,
  admin: true,
  async run(ctx) {
    const { listTokens } = await import('../auth/index.js')
    return { tokens: (await listTokens((await ctx.brain()).db)).map(shownToken) }
  },
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
    const { token, info } = await createToken((await ctx.brain()).db, args.name, wanted, args.source ?? null)
    return { ...shownToken(info), token }
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
    return shownToken(await revokeToken((await ctx.brain()).db, args.token))
  },
})

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
})

export const operateTools: Operation[] = [runDoctorTool, listWorkersTool, listSupervisorEventsTool, listTokensTool, createTokenTool, revokeTokenTool, listRequestsTool]
