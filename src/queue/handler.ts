import type { z } from 'zod'
import { NotAvailableError } from '../errors/index.js'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import type { JobName, JobProgress } from './types.js'
import { parseWith, type JobSpec } from './catalogue.js'
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
 * One job handler as a file in `workers/` defines it: its name, the schema of its data, the
 * error a refused payload raises (the handler's own code, so callers see what they always saw),
 * and what it runs with the data the schema returned.
 */
export interface JobDefinition<S extends z.ZodType> extends JobSpec<S> {
  /** The job name, or the autopilot phase, it runs as. */
  name: string
  run: (ctx: JobContext<z.output<S>>) => Promise<unknown>
}

/** A handler made by defineJob: callable as any JobHandler, and it carries its name and schema. */
export type DefinedJob = JobHandler & { readonly jobName: string; readonly dataSchema: z.ZodType }

/** Makes a handler that validates the job's data with its schema before it runs. */
export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): DefinedJob {
  const handler: JobHandler = async (ctx) => definition.run({ ...ctx, data: parseWith(definition, ctx.data) })
  return Object.assign(handler, { jobName: definition.name, dataSchema: definition.data })
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
