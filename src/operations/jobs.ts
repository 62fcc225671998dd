import * as z from 'zod'
import { NotFoundError, UsageError } from '../errors/index.js'
import { JOB_NAMES, JOB_STATUSES } from '../queue/types.js'
import type { Queue } from '../queue/index.js'
import type { CallContext } from './call-context.js'
import { defineOperation, type Operation } from './operation.js'
import { syncTool } from './sync.js'

async function withQueue<T>(ctx: CallContext, fn: (queue: Queue) => Promise<T>): Promise<T> {
  const { openQueue } = await import('../queue/index.js')
  const { db, config } = await ctx.brain()
  const queue = await openQueue({ db, config, logger: ctx.logger })
  try {
    return await fn(queue)
  } finally {
    await queue.close()
  }
}

interface ShownJob {
  id: string
  name: string
  status: string
  attempts: number
  /** A Date in the core, ISO text once it has been JSON. */
  createdAt: Date | string
  progress?: { done: number; total?: number; message?: string } | null
  result?: unknown
  error?: unknown
  data?: unknown
}

export function jobLine(job: ShownJob): string {
  const when = new Date(job.createdAt).toISOString().replace('T', ' ').slice(0, 19)
  return `${job.id}  ${job.name.padEnd(15)}  ${job.status.padEnd(9)}  attempts ${job.attempts}  ${when}`
}

export function jobDetailText(job: ShownJob): string {
  const lines = [jobLine(job)]
  if (job.progress) lines.push(`progress: ${job.progress.done}${job.progress.total !== undefined ? `/${job.progress.total}` : ''} ${job.progress.message ?? ''}`)
  if (job.status === 'completed') lines.push(`result: ${JSON.stringify(job.result)}`)
  if (job.error) lines.push(`error: ${JSON.stringify(job.error)}`)
  return lines.join('\n')
}

/** Jobs an untrusted remote caller may not start: they run commands or read local paths. */
const LOCAL_ONLY_JOBS = new Set(['shell', 'import'])

export const submitJobTool = defineOperation({
  name: 'submit_job',
  description: `Submit a background job (${JOB_NAMES.join(', ')}) and, with wait=true, wait for its result. Use the dedicated tools (sync) when they exist; use this for embed, extract or autopilot-cycle. Returns the job record (id, status, result or error).`,
  input: z.strictObject({
    name: z.enum(JOB_NAMES),
    data: z.record(z.string(), z.unknown()).optional().describe('Job data (a JSON object)'),
    wait: z.boolean().optional().describe('Wait for the job to finish and return its result'),
    idempotency_key: z.string().min(1).max(200).optional().describe('Same key, same job: resubmitting returns the existing job'),
    timeout_ms: z.number().int().min(1).optional().describe('Per-job timeout in milliseconds (default depends on the job)'),
    max_stalled: z.number().int().min(0).optional().describe('Stalls forgiven before the job ends dead (default 1)'),
    priority: z.number().int().optional().describe('Higher runs first (default 0)'),
  }),
  mutating: true,
  async run(ctx, args) {
    if (ctx.remote && LOCAL_ONLY_JOBS.has(args.name)) {
      throw new UsageError('job_not_allowed_remotely', `${args.name} jobs cannot be submitted over HTTP.`, { hint: 'Run it on the brain host with `brain jobs submit`.' })
    }
    const options = { idempotencyKey: args.idempotency_key, timeoutMs: args.timeout_ms, maxStalled: args.max_stalled, priority: args.priority }
    const job = await withQueue(ctx, (queue) =>
      args.wait ? queue.submitAndWait(args.name, args.data ?? {}, { ...options, onProgress: ctx.onProgress, signal: ctx.signal }) : queue.submit(args.name, args.data ?? {}, options),
    )
    return { ...job }
  },
  // A job still waiting reads as its id (what a script keeps); a finished one as its record.
  present: { text: (job) => (job.status === 'waiting' || job.status === 'active' ? job.id : jobDetailText(job)) },
})

const getJobTool = defineOperation({
  name: 'get_job',
  description: 'Read one job by id: status (waiting|active|completed|dead), progress, result or error envelope.',
  input: z.strictObject({ id: z.string().trim().min(1).max(200) }),
  mutating: false,
  async run(ctx, args) {
    const job = await withQueue(ctx, (queue) => queue.get(args.id))
    if (!job) throw new NotFoundError('job_not_found', `No job ${args.id}.`, { hint: 'List jobs with list_jobs or `brain jobs list`.' })
    return { ...job }
  },
  present: { text: (job) => `${jobDetailText(job)}\ndata: ${JSON.stringify(job.data)}` },
  cli: {
    path: ['jobs', 'get'],
    description: 'Show one job: status, data, progress, result or error',
    positional: { field: 'id', required: true },
    options: [],
  },
})

const listJobsTool = defineOperation({
  name: 'list_jobs',
  description: 'List jobs newest first, optionally by status and name. Returns {jobs: [...]}. Use it to see whether syncs or embeddings are pending or failed.',
  input: z.strictObject({
    status: z.enum(JOB_STATUSES).optional(),
    name: z.enum(JOB_NAMES).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  }),
  mutating: false,
  async run(ctx, args) {
    const jobs = await withQueue(ctx, (queue) => queue.list({ status: args.status, name: args.name, limit: args.limit }))
    return { jobs }
  },
  present: { json: (result) => result.jobs, text: (result) => (result.jobs.length === 0 ? 'no jobs' : result.jobs.map(jobLine).join('\n')) },
  cli: {
    path: ['jobs', 'list'],
    description: 'List jobs, newest first',
    options: [
      { field: 'status', flag: '--status', kind: 'string', description: 'waiting, active, completed or dead' },
      { field: 'name', flag: '--name', kind: 'string', description: 'Only jobs of this name' },
      { field: 'limit', flag: '--limit', kind: 'integer', description: 'At most this many (default 50)' },
    ],
  },
})

/** A job name as the queue spells it; a result's map keys arrive camelCased (`ingestCapture`). */
const queueSpelling = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

const jobStatsTool = defineOperation({
  name: 'job_stats',
  description:
    'Count jobs by status (waiting, active, completed, dead), overall and per job name. Returns {waiting, active, completed, dead, by_name: {<job name>: counts}}. Use it for a quick look at the queue before list_jobs.',
  input: z.strictObject({}),
  mutating: false,
  async run(ctx) {
    return { ...(await withQueue(ctx, (queue) => queue.stats())) }
  },
  present: {
    text: (stats) => {
      const row = (label: string, c: { waiting: number; active: number; completed: number; dead: number }): string =>
        `${label.padEnd(16)} waiting ${c.waiting}  active ${c.active}  completed ${c.completed}  dead ${c.dead}`
      return [row('all', stats), ...Object.entries(stats.byName).map(([name, counts]) => row(queueSpelling(name), counts))].join('\n')
    },
  },
  cli: { path: ['jobs', 'stats'], description: 'Count jobs by status, overall and per job name', options: [] },
})

function jobChange(name: 'cancel_job' | 'retry_job'): Operation {
  const cancelling = name === 'cancel_job'
  return defineOperation({
    name,
    description: cancelling
      ? 'Cancel a waiting or active job: it ends dead (retry_job brings it back). Returns {id, cancelled}; cancelled is false when the job was not waiting or active.'
      : 'Give a dead job one more attempt: it waits again. Returns {id, retried}; retried is false when the job was not dead.',
    input: z.strictObject({ id: z.string().trim().min(1).max(200) }),
    mutating: true,
    async run(ctx, args) {
      const changed = await withQueue(ctx, (queue) => (cancelling ? queue.cancel(args.id) : queue.retry(args.id)))
      return cancelling ? { id: args.id, cancelled: changed } : { id: args.id, retried: changed }
    },
    present: {
      text: (result) => {
        const r = result as { id: string; cancelled?: boolean; retried?: boolean }
        if (cancelling) return r.cancelled ? `cancelled ${r.id}` : `${r.id} is not waiting or active`
        return r.retried ? `${r.id} is waiting again` : `${r.id} is not dead`
      },
    },
  })
}

export const cancelJobTool = jobChange('cancel_job')
export const retryJobTool = jobChange('retry_job')

export const jobTools: Operation[] = [syncTool, submitJobTool, getJobTool, listJobsTool, jobStatsTool, cancelJobTool, retryJobTool]
