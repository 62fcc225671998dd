import type * as z from 'zod'
import { NotAvailableError } from '../errors/index.js'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import type { JobName, JobProgress } from './types.js'
import { HANDLER_CATALOGUE, parseWith, type HandlerData, type HandlerName, type JobSpec } from './catalogue.js'
import type { Logger } from '../util/index.js'

/**
 * What a job handler receives. The same context is built for a worker and for an inline run, so
 * a handler never knows (or cares) which process runs it.
 *
 * Handlers are the default export of `workers/<name>.ts`. They must honour `signal`: once it
 * fires (timeout, cancel, worker shutdown) they should stop and reject; a handler still running
 * 30 s after the abort is evicted and its job ends dead.
 */
export interface JobContext<D = Record<string, unknown>> {
  jobId: string
  name: JobName
  data: D
  signal: AbortSignal
  db: Database
  config: Config
  logger: Logger
  progress(p: JobProgress): void
}

/** Resolves with the job's result (stored as-is, so keep it JSON); a rejection ends the job dead. */
export type JobHandler = (ctx: JobContext) => Promise<unknown>

/**
 * One job handler as a file in `workers/` defines it: the name it runs as (a job or an autopilot
 * phase of the catalogue) and what it runs with the data the catalogue's schema returned. The
 * schema and the error a refused payload raises come from the catalogue entry of that name.
 */
export interface JobDefinition<N extends HandlerName> {
  name: N
  run: (ctx: JobContext<HandlerData<N>>) => Promise<unknown>
}

/** A handler made by defineJob: callable as any JobHandler, and it carries its name and schema. */
export type DefinedJob<N extends HandlerName = HandlerName> = JobHandler & { readonly jobName: N; readonly dataSchema: z.ZodType }

/** Makes a handler that validates the job's data with its catalogue schema before it runs. */
export function defineJob<N extends HandlerName>(definition: JobDefinition<N>): DefinedJob<N> {
  const entry = HANDLER_CATALOGUE[definition.name] as JobSpec<z.ZodType>
  const handler: JobHandler = async (ctx) => definition.run({ ...ctx, data: parseWith(entry, ctx.data) as HandlerData<N> })
  return Object.assign(handler, { jobName: definition.name, dataSchema: entry.data })
}

/** Resolves a job name to its handler; workers and inline runs take one of these. */
export type HandlerResolver = (name: JobName) => Promise<JobHandler>

let registered: HandlerResolver | null = null

/**
 * The queue runs handlers it does not know: the program's entry point (the CLI, the service,
 * a test) hands the registry in here once, and every queue of the process uses it unless it
 * is given a resolver of its own.
 */
export function registerHandlers(resolver: HandlerResolver): void {
  registered = resolver
}

/** The registered handlers, looked up when a job is about to run. */
export const registeredHandlers: HandlerResolver = (name) => {
  if (registered === null) {
    return Promise.reject(
      new NotAvailableError('no_job_handlers', `No job handlers are registered in this process, so the ${name} job cannot run here.`, {
        hint: 'Call registerHandlers(defaultResolver) from workers/registry.js at start-up.',
      }),
    )
  }
  return registered(name)
}
