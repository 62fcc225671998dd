import { randomUUID } from 'node:crypto'
import type { ClaimedJob } from './boss-sql.js'
import { JobCancelledError, WorkerShutdownError } from './errors.js'
import { executeClaimed, type ExecutionDeps } from './execute.js'
import type { RunningJob, RunOutcome } from './run-job.js'
import { deregister, heartbeat, type WorkerRegistration } from './sql/workers.js'
import type { JobProgress } from './types.js'

export interface InlineOptions {
  onProgress?: (p: JobProgress) => void
  signal?: AbortSignal
}

/**
 * Runs a job this command claimed, in this process. The command registers as an `inline`
 * process with heartbeats so no worker mistakes the job for a stalled one, and listens for a
 * cancel from another process.
 */
export async function runInline(deps: ExecutionDeps, claimed: ClaimedJob, options: InlineOptions = {}): Promise<RunOutcome> {
  const registration: WorkerRegistration = { id: randomUUID(), kind: 'inline', names: [claimed.name], concurrency: 1 }
  await heartbeat(deps.db, registration, [claimed.id])
  const beat = setInterval(() => {
    heartbeat(deps.db, registration, [claimed.id]).catch((err: unknown) => deps.logger.warn('heartbeat failed', { error: err instanceof Error ? err.message : String(err) }))
  }, deps.timings.heartbeatMs)
  beat.unref()
  let running: RunningJob | null = null
  const interrupt = (): void => running?.abort(new WorkerShutdownError('run_interrupted', 'The command running this job was interrupted; the job goes back to the queue.'))
  options.signal?.addEventListener('abort', interrupt)
  const unsubscribe = deps.signals.crossProcess
    ? await deps.signals.subscribe((event) => {
        if (event.e === 'cancel' && event.id === claimed.id) running?.abort(new JobCancelledError('job_cancelled', 'The job was cancelled while it ran.'))
      })
    : null
  try {
    return await executeClaimed(deps, claimed, {
      onProgress: options.onProgress,
      onStart: (r) => {
        running = r
        if (options.signal?.aborted) interrupt()
      },
    })
  } finally {
    clearInterval(beat)
    options.signal?.removeEventListener('abort', interrupt)
    await unsubscribe?.()
    await deregister(deps.db, registration.id).catch(() => undefined)
  }
}
