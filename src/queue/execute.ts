import { configForJob, type Config } from '../config/index.js'
import { bookkeepingOf, type Database } from '../db/index.js'
import { serializeError } from '../errors/index.js'
import type { Logger } from '../util/index.js'
import type { HandlerResolver } from './handler.js'
import type { ClaimedJob } from './boss-sql.js'
import { readEnvelope } from './envelope.js'
import type { Finisher, FinishKind } from './finisher.js'
import { createProgressWriter } from './progress-writer.js'
import { startJob, type RunningJob, type RunOutcome, type Timers } from './run-job.js'
import type { QueueTimings } from './settings.js'
import type { JobSignals } from './signals.js'
import type { FinishItem } from './boss-sql.js'
import type { JobProgress } from './types.js'

/** What running a job needs, shared by workers and inline runs. */
export interface ExecutionDeps {
  db: Database
  config: Config
  logger: Logger
  timings: QueueTimings
  resolver: HandlerResolver
  signals: JobSignals
  finisher: Finisher
  timers?: Timers
}

interface ExecutionHooks {
  onProgress?: (p: JobProgress) => void
  /** Receives the running job as soon as the handler starts, for aborts from outside. */
  onStart?: (running: RunningJob) => void
}

function finishing(claimed: ClaimedJob, outcome: RunOutcome): [FinishKind, FinishItem] {
  const base = { name: claimed.name, id: claimed.id, fence: claimed.fence }
  if (outcome.kind === 'completed') return ['completed', { ...base, output: { result: outcome.result } }]
  if (outcome.kind === 'evicted') return ['failed', { ...base, output: { error: outcome.error } }]
  const kind: FinishKind = outcome.requeue === false ? 'failed' : outcome.requeue
  return [kind, { ...base, output: { error: outcome.error } }]
}

/**
 * The configuration a job runs with: this process's own when the job was submitted with the
 * same settings (it keeps secrets, which are never stored with a job), else the submitter's
 * settings on top of this process's environment.
 */
function configFor(own: Config, settings: Record<string, string> | undefined): Config {
  if (settings === undefined || sameSettings(own.jobSettings, settings)) return own
  return configForJob(settings)
}

function sameSettings(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key])
}

/**
 * Runs a job this process has claimed and records its outcome: the one path shared by the
 * worker loop and by a CLI command running its own job inline.
 */
export async function executeClaimed(deps: ExecutionDeps, claimed: ClaimedJob, hooks: ExecutionHooks = {}): Promise<RunOutcome> {
  const envelope = readEnvelope(claimed.name, claimed.data)
  let outcome: RunOutcome
  try {
    const handler = await deps.resolver(claimed.name)
    const progress = createProgressWriter(bookkeepingOf(deps.db), claimed, {
      throttleMs: deps.timings.progressThrottleMs,
      notify: deps.signals.crossProcess,
      logger: deps.logger,
    })
    const running = startJob({
      jobId: claimed.id,
      name: claimed.name,
      data: envelope.payload,
      handler,
      db: deps.db,
      config: configFor(deps.config, envelope.settings),
      logger: deps.logger,
      timeoutMs: envelope.timeout_ms,
      evictAfterMs: deps.timings.evictAfterMs,
      timers: deps.timers,
      onProgress: (p) => {
        hooks.onProgress?.(p)
        progress.write(p)
        // Without NOTIFY, a caller in this process waiting for a worker's job hears it here.
        deps.signals.deliverLocally({ e: 'progress', id: claimed.id, p })
      },
    })
    hooks.onStart?.(running)
    outcome = await running.outcome
    await progress.close()
  } catch (err) {
    outcome = { kind: 'failed', error: serializeError(err), requeue: false }
  }
  const [kind, item] = finishing(claimed, outcome)
  await deps.finisher.finish(kind, item)
  return outcome
}
