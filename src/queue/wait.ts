import { NotFoundError } from '../errors/index.js'
import type { ExecutionDeps } from './execute.js'
import { runInline, type InlineOptions } from './inline.js'
import { localWorkerServes } from './local-workers.js'
import { isFinished } from './record.js'
import { claimJob } from './boss-sql.js'
import { readJob } from './sql/read-jobs.js'
import { rescueStalled } from './rescue.js'
import { liveWorkerCount, reapDeadWorkers } from './sql/workers.js'
import type { JobDetail, JobName } from './types.js'

/**
 * Whether this process should run a waiting job itself: when no other process can share the
 * database, unless a worker in this process serves the job's name; on the server engine only
 * when no live worker serves it.
 */
async function shouldRunInline(deps: ExecutionDeps, name: JobName): Promise<boolean> {
  if (!deps.db.capabilities.multiProcess) return !localWorkerServes(deps.db, name)
  return (await liveWorkerCount(deps.db, name, deps.timings.livenessMs)) === 0
}

/**
 * Returns stalled jobs to the queue and wakes workers for them: at once the jobs of a process on
 * this machine that is gone (a worker killed and restarted), the others once their process has
 * been silent past the liveness period.
 */
export async function rescue(deps: ExecutionDeps): Promise<number> {
  const orphaned = deps.db.capabilities.multiProcess ? await reapDeadWorkers(deps.db) : []
  const rescued = [
    ...(orphaned.length > 0 ? await rescueStalled(deps.db, { livenessMs: deps.timings.livenessMs, minAgeMs: 0, ids: orphaned }) : []),
    ...(await rescueStalled(deps.db, { livenessMs: deps.timings.livenessMs, minAgeMs: 2 * deps.timings.livenessMs })),
  ]
  for (const name of new Set(rescued.map((r) => r.name))) await deps.signals.publish({ e: 'new', name })
  return rescued.length
}

function sleepUntilWoken(ms: number, signal: AbortSignal | undefined, setWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal?.addEventListener('abort', done)
    setWake(done)
  })
}

/**
 * Waits until a job is completed or dead. A waiting job is run inline when nobody else will run
 * it; otherwise completion arrives by signal, and every liveness period the waiter re-checks
 * (a worker may have died: stalled jobs are rescued, and run inline if no worker is left).
 */
export async function awaitJob(deps: ExecutionDeps, job: JobDetail, options: InlineOptions = {}): Promise<JobDetail> {
  let wake: () => void = () => undefined
  let woken = false
  // While this process runs the job itself, its progress arrives directly, not by NOTIFY. The
  // NOTIFY of an attempt run here can arrive after the run ended, so attempts are remembered.
  let runningHere = false
  const ranHere = new Set<number>()
  const unsubscribe = await deps.signals.subscribe((event) => {
    if (event.e === 'progress' && event.id === job.id && !runningHere && !(event.attempt !== undefined && ranHere.has(event.attempt))) options.onProgress?.(event.p)
    if (event.e === 'done' && event.ids.includes(job.id)) {
      woken = true
      wake()
    }
  })
  try {
    for (;;) {
      woken = false
      const current = await readJob(deps.db, job.id)
      if (!current) throw new NotFoundError('job_not_found', `Job ${job.id} no longer exists.`)
      if (isFinished(current)) return current
      options.signal?.throwIfAborted()
      if (current.status === 'waiting' && (await shouldRunInline(deps, job.name as JobName))) {
        const claimed = await claimJob(deps.db, job.name as JobName, job.id)
        if (claimed) {
          runningHere = true
          ranHere.add(claimed.fence)
          try {
            await runInline(deps, claimed, options)
          } finally {
            runningHere = false
          }
          continue
        }
      }
      if (woken) continue
      const before = Date.now()
      await sleepUntilWoken(deps.timings.livenessMs, options.signal, (w) => (wake = w))
      wake = () => undefined
      if (!woken && Date.now() - before >= deps.timings.livenessMs && deps.db.capabilities.multiProcess) await rescue(deps)
    }
  } finally {
    await unsubscribe()
  }
}
