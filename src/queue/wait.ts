import { DatabaseError, NotAvailableError, NotFoundError, isBrainError, type BrainError } from '../errors/index.js'
import { JobStalledError } from './errors.js'
import type { ExecutionDeps } from './execute.js'
import { runInline, type InlineOptions } from './inline.js'
import { localWorkerServes } from './local-workers.js'
import { isFinished } from './record.js'
import { claimJob } from './boss-sql.js'
import { readJob } from './sql/read-jobs.js'
import { rescueStalled } from './rescue.js'
import { jobFollowers, liveWorkerCount, probeWrite, reapDeadWorkers } from './sql/workers.js'
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

/** How long a waited-for job may go without a sign of life before the wait ends with an error. */
function stallAfterMs(deps: ExecutionDeps): number {
  // Past a whole rescue period (twice the liveness), so a job whose worker died is first given
  // back to the queue and run again, and only a job nobody can take any more ends the wait.
  return 2 * deps.timings.livenessMs + deps.timings.heartbeatMs
}

/** A job this process ran to an end the database could not store, as its record would read. */
function endedHere(current: JobDetail, outcome: { completed: boolean; output: Record<string, unknown> }): JobDetail {
  const completedAt = new Date()
  if (outcome.completed) return { ...current, status: 'completed', result: outcome.output.result ?? null, completedAt }
  return { ...current, status: 'dead', error: outcome.output.error ?? null, completedAt }
}

/** An error of a run this waiter did itself, told apart from the waiting's own. */
class InlineRunFailed extends Error {
  constructor(readonly failure: unknown) {
    super("the waiter's own run of the job failed")
  }
}

/** What a sign of life is: a new state, a new claim, or new progress. */
function lifeMark(job: JobDetail): string {
  return JSON.stringify([job.status, job.attempts, job.progress])
}

/**
 * Why a job stopped moving, as the error its waiter ends with: a disk too full to write on comes
 * first, since it explains both a worker that cannot beat and a job that cannot be claimed.
 */
async function whyStalled(deps: ExecutionDeps, job: JobDetail, silentMs: number): Promise<BrainError> {
  try {
    await probeWrite(deps.db)
  } catch (err) {
    if (isBrainError(err) && err.code === 'disk_full') return err
  }
  const seconds = Math.round(silentMs / 1000)
  if (job.status === 'waiting') {
    return new NotAvailableError('worker_unavailable', `No worker has taken job ${job.id} (${job.name}) in ${seconds} s, and none that serves it is alive.`, {
      hint: 'Check `brain service status` and `brain jobs list`; start a worker with `brain jobs work`. The job stays queued and runs once a worker is back.',
    })
  }
  return new JobStalledError('job_stalled', `Job ${job.id} (${job.name}) has not been heard from in ${seconds} s: the process running it stopped reporting.`, {
    hint: `See \`brain jobs get ${job.id}\` and the worker's log. The job goes back to the queue once its worker is declared gone; \`brain jobs cancel ${job.id}\` stops it.`,
  })
}

/**
 * Waits until a job is completed or dead. A waiting job is run inline when nobody else will run
 * it; otherwise completion arrives by signal, and every heartbeat period the waiter re-checks
 * (a worker may have died: stalled jobs are rescued, and run inline if no worker is left).
 *
 * The wait follows the job's liveness, never hope: as long as the job changes state, reports
 * progress, or has a live process holding it (or a live worker that will claim it), the wait
 * goes on; once it has shown none of these for stallAfterMs, the wait ends with disk_full,
 * worker_unavailable or job_stalled. A job this process ran but could not record ends the wait
 * at once with its real outcome.
 */
export async function awaitJob(deps: ExecutionDeps, job: JobDetail, options: InlineOptions = {}): Promise<JobDetail> {
  let wake: () => void = () => undefined
  let woken = false
  let unrecorded: { completed: boolean; output: Record<string, unknown> } | null = null
  // While this process runs the job itself, its progress arrives directly, not by NOTIFY. The
  // NOTIFY of an attempt run here can arrive after the run ended, so attempts are remembered.
  let runningHere = false
  const ranHere = new Set<number>()
  let lastLife = Date.now()
  const unsubscribe = await deps.signals.subscribe((event) => {
    if (event.e === 'progress' && event.id === job.id) {
      lastLife = Date.now()
      if (!runningHere && !(event.attempt !== undefined && ranHere.has(event.attempt))) options.onProgress?.(event.p)
    }
    if (event.e === 'unrecorded' && event.id === job.id && !runningHere) {
      unrecorded = { completed: event.completed, output: event.output }
      woken = true
      wake()
    }
    if (event.e === 'done' && event.ids.includes(job.id)) {
      woken = true
      wake()
    }
  })
  // The job may have ended here, unrecorded, before this wait subscribed.
  const known = deps.signals.unrecordedOutcome(job.id)
  if (known) unrecorded = { completed: known.completed, output: known.output }
  const stallMs = stallAfterMs(deps)
  const tickMs = Math.min(deps.timings.livenessMs, deps.timings.heartbeatMs)
  let mark = lifeMark(job)
  let lastRescue = Date.now()
  try {
    for (;;) {
      try {
        woken = false
        const current = await readJob(deps.db, job.id)
        if (!current) throw new NotFoundError('job_not_found', `Job ${job.id} no longer exists.`)
        if (isFinished(current)) return current
        if (unrecorded !== null) return endedHere(current, unrecorded)
        options.signal?.throwIfAborted()
        if (current.status === 'waiting' && (await shouldRunInline(deps, job.name as JobName))) {
          const claimed = await claimJob(deps.db, job.name as JobName, job.id)
          if (claimed) {
            runningHere = true
            ranHere.add(claimed.fence)
            try {
              await runInline(deps, claimed, options)
            } catch (err) {
              // A run of its own that failed is the wait's answer: nobody else holds the job.
              throw new InlineRunFailed(err)
            } finally {
              runningHere = false
            }
            lastLife = Date.now()
            continue
          }
        }
        const now = Date.now()
        if (lifeMark(current) !== mark) {
          mark = lifeMark(current)
          lastLife = now
        } else if (now - lastLife >= stallMs) {
          const followers = await jobFollowers(deps.db, job.id, job.name as JobName, deps.timings.livenessMs)
          const alive = current.status === 'waiting' ? followers.server || followers.holder : followers.holder
          // Where another process may pick it up, a job nobody holds goes back to the queue first.
          const requeued = !alive && deps.db.capabilities.multiProcess && (await rescue(deps)) > 0
          if (!alive && !requeued) throw await whyStalled(deps, current, now - lastLife)
          lastLife = now
          if (requeued) continue
        }
        if (woken) continue
        await sleepUntilWoken(tickMs, options.signal, (w) => (wake = w))
        wake = () => undefined
        if (!woken && Date.now() - lastRescue >= deps.timings.livenessMs && deps.db.capabilities.multiProcess) {
          lastRescue = Date.now()
          await rescue(deps)
        }
      } catch (err) {
        // A server restart or a dropped network: the job may still be running, so the wait goes
        // on while the database is away, within the same bound as a silent job.
        if (err instanceof InlineRunFailed) throw err.failure
        if (!isBrainError(err) || (err.code !== 'database_connection_lost' && err.code !== 'database_unreachable')) throw err
        const silentMs = Date.now() - lastLife
        if (silentMs >= stallMs) {
          throw new DatabaseError('database_unreachable', `PostgreSQL has not answered for ${Math.round(silentMs / 1000)} s while waiting for job ${job.id} (${job.name}).`, {
            hint: `Check the server (\`brain doctor\`). The job is kept: \`brain jobs get ${job.id}\` shows how it ended once the server is back.`,
            cause: err,
          })
        }
        await sleepUntilWoken(tickMs, options.signal, (w) => (wake = w))
        wake = () => undefined
      }
    }
  } finally {
    await unsubscribe()
  }
}
