import type { Config } from '../src/config/index.js'
import type { Database } from '../src/db/types.js'
import type { JobName, JobProgress } from '../src/queue/types.js'
import type { Logger } from '../src/util/logger.js'

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
