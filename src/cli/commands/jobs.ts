import { Command, Option } from 'clipanion'
import { NotFoundError, UsageError } from '../../errors/index.js'
import { jobDetailText, jobLine, submitJobTool } from '../../operations/index.js'
import { BrainCommand } from '../brain-command.js'
import { checkedArgs, fieldOption, fieldSwitch } from '../operation-command.js'
import type { AttachedWorker } from '../../service/index.js'

const DEFAULT_AUTOPILOT_CRON = '*/30 * * * *'

function parseData(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw new UsageError('invalid_job_data', '--data is not valid JSON.', { hint: `Example: --data '{"cmd":"echo hi"}'` })
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('invalid_job_data', '--data must be a JSON object.')
  return value as Record<string, unknown>
}

function positive(flag: string, raw: string | undefined, allowZero = false): number | undefined {
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) throw new UsageError('invalid_number', `${flag} must be a whole number${allowZero ? '' : ' above 0'}, not "${raw}".`)
  return value
}

function whole(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (raw.trim() === '' || !Number.isInteger(value)) throw new UsageError('invalid_number', `${flag} must be a whole number, not "${raw}".`)
  return value
}

/** The face of the `submit_job` operation: `--data` as JSON text, `--timeout` as a duration, progress on a terminal. */
export class JobsSubmitCommand extends BrainCommand {
  static override paths = [['jobs', 'submit']]
  static override usage = Command.Usage({
    description: 'Submit a job (sync, embed, extract, ingest_capture, autopilot-cycle, shell, import, capture)',
    details:
      'With --wait, waits for the result: on the embedded engine the brain service runs it; on the server engine a live worker runs it (or this process, when no worker is alive). Whichever process runs it, the job sees the brain settings of this command (its BRAIN_* and OPENAI_* variables; keys, tokens and database URLs are never stored with a job, and jobs arriving over HTTP carry none).',
    examples: [['Run a shell job and wait', `BRAIN_ALLOW_SHELL_JOBS=1 $0 jobs submit shell --data '{"cmd":"echo hi"}' --wait`]],
  })
  name = Option.String({ required: true })
  data = fieldOption(submitJobTool, 'data')
  wait = fieldSwitch(submitJobTool, 'wait')
  idempotencyKey = fieldOption(submitJobTool, 'idempotency_key')
  timeout = Option.String('--timeout', { description: 'Per-job timeout, e.g. 90s, 10min (default depends on the job)' })
  maxStalled = fieldOption(submitJobTool, 'max_stalled')
  priority = fieldOption(submitJobTool, 'priority')

  protected async run(): Promise<number> {
    const { toJobName } = await import('../../queue/envelope.js')
    const { parseDurationMs } = await import('../../config/index.js')
    const timeoutMs = this.timeout === undefined ? undefined : parseDurationMs('--timeout', this.timeout, 0)
    const args = checkedArgs(submitJobTool, {
      name: toJobName(this.name),
      data: parseData(this.data),
      wait: this.wait || undefined,
      idempotency_key: this.idempotencyKey,
      timeout_ms: timeoutMs === 0 ? undefined : timeoutMs,
      max_stalled: positive('--max-stalled', this.maxStalled, true),
      priority: whole('--priority', this.priority),
    })
    if (!this.wait) {
      await this.present(submitJobTool, await this.runOperation(submitJobTool, args))
      return 0
    }
    const { progressPrinter } = await import('../job-runner.js')
    const progress = progressPrinter(this.context.stderr, this.name)
    const interrupt = this.interruptSignal(() => new UsageError('interrupted', 'Interrupted.'))
    let job: Record<string, unknown>
    try {
      job = await this.runOperation(submitJobTool, args, { onProgress: progress.update, signal: interrupt.signal })
    } finally {
      progress.finish()
      interrupt.dispose()
    }
    await this.present(submitJobTool, job)
    return 0
  }
}

export class JobsCancelCommand extends BrainCommand {
  static override paths = [['jobs', 'cancel']]
  static override usage = Command.Usage({ description: 'Cancel a waiting or active job (it ends dead; `jobs retry` brings it back)' })
  id = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { cancelJobTool } = await import('../../operations/jobs.js')
    const result = await this.runOperation(cancelJobTool, checkedArgs(cancelJobTool, { id: this.id }))
    await this.present(cancelJobTool, result)
    return result.cancelled ? 0 : 1
  }
}

export class JobsRetryCommand extends BrainCommand {
  static override paths = [['jobs', 'retry']]
  static override usage = Command.Usage({ description: 'Give a dead job one more attempt' })
  id = Option.String({ required: true })

  protected async run(): Promise<number> {
    const { retryJobTool } = await import('../../operations/jobs.js')
    const result = await this.runOperation(retryJobTool, checkedArgs(retryJobTool, { id: this.id }))
    await this.present(retryJobTool, result)
    return result.retried ? 0 : 1
  }
}

export class JobsWorkCommand extends BrainCommand {
  static override paths = [['jobs', 'work']]
  static override usage = Command.Usage({
    description: 'Run a worker until stopped (SIGTERM/SIGINT requeue the jobs in flight)',
    details: 'Without --max-rss there is no memory limit; under `brain jobs supervisor` the limit is 2048 MB.',
  })
  concurrency = Option.String('--concurrency', { description: 'Jobs run at once (default 1)' })
  noRetryConnect = Option.Boolean('--no-retry-connect', false, { description: 'Fail at once when the database is unreachable' })
  maxRss = Option.String('--max-rss', { description: 'Shut down (exit 75) when resident memory exceeds this many MB' })
  autopilotCron = Option.String('--autopilot-cron', { description: `Schedule of the autopilot cycle (default "${DEFAULT_AUTOPILOT_CRON}"; off removes it)` })

  protected async run(): Promise<number> {
    const { Worker } = await import('../../queue/worker.js')
    const { EXIT_MEMORY_LIMIT } = await import('../../../supervisor/exit-cause.js')
    const { streamLogger } = await import('../../util/logger.js')
    const concurrency = positive('--concurrency', this.concurrency) ?? 1
    const maxRssMb = positive('--max-rss', this.maxRss) ?? null
    const cron = this.autopilotCron ?? DEFAULT_AUTOPILOT_CRON
    let received: NodeJS.Signals | null = null
    const reason = await this.withBrain(
      async ({ db, config }) => {
        const logger = streamLogger(this.context.stderr, 'brain worker')
        const serviceWorker = await this.context.host?.attachWorker(db, { autopilotCron: cron === 'off' ? null : cron })
        if (serviceWorker) return this.attach(serviceWorker, db.location, cron)
        const worker = new Worker({ db, config, logger, concurrency, maxRssMb, autopilotCron: cron === 'off' ? null : cron })
        const onSignal = (signal: NodeJS.Signals): void => {
          received = signal
          void worker.stop('requested')
        }
        const onAbort = (): void => void worker.stop('requested')
        const outer = this.context.signal
        if (outer) outer.addEventListener('abort', onAbort, { once: true })
        else {
          // A stray rejection inside a library timer (pg-boss during a database outage) must not
          // take down a worker whose jobs are fine; it is logged instead.
          process.on('unhandledRejection', (err) => logger.error(`unhandled rejection: ${err instanceof Error ? err.message : String(err)}`))
          process.once('SIGTERM', onSignal)
          process.once('SIGINT', onSignal)
        }
        try {
          await worker.start()
          logger.info(`worker ${worker.id} started (pid ${process.pid}, concurrency ${concurrency}, ${db.location})`)
          return await worker.done
        } catch (err) {
          await worker.stop()
          throw err
        } finally {
          outer?.removeEventListener('abort', onAbort)
          process.off('SIGTERM', onSignal)
          process.off('SIGINT', onSignal)
        }
      },
      { noRetryConnect: this.noRetryConnect },
    )
    if (reason === 'memory') return EXIT_MEMORY_LIMIT
    if (received) {
      // Die by the signal we were sent, so a supervisor reads the exit as a graceful shutdown;
      // if something else handles that signal, exit 128 + its number as a shell would report it.
      process.kill(process.pid, received)
      return received === 'SIGINT' ? 130 : 143
    }
    return 0
  }

  /**
   * On the embedded engine the resident service already runs the worker: a second one could
   * not open the brain, so this command reports that one and stays attached until interrupted.
   */
  private async attach(worker: AttachedWorker, location: string, cron: string): Promise<'requested'> {
    const schedule = cron === 'off' ? 'no autopilot schedule' : `autopilot "${cron}" (UTC)`
    this.context.stderr.write(
      `brain worker: the brain service (pid ${worker.pid}) runs worker ${worker.id} (concurrency ${worker.concurrency}, ${location}, ${schedule}); attached until interrupted\n`,
    )
    try {
      const signal = this.context.signal
      if (signal && !signal.aborted) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
    } finally {
      await worker.detach()
    }
    return 'requested'
  }
}

export class JobsSupervisorCommand extends BrainCommand {
  static override paths = [['jobs', 'supervisor']]
  static override usage = Command.Usage({
    description: 'Run a worker under supervision: restarts, memory limit, database health checks',
    details: 'Prints one JSON event per line (worker_exited with likely_cause, health_warn, …) on stdout and appends them to --events-file. Gives up (exit 1) after 5 consecutive worker crashes.',
  })
  concurrency = Option.String('--concurrency', { description: 'Worker concurrency (default 1)' })
  maxRss = Option.String('--max-rss', { description: 'Worker memory limit in MB (default 2048; 0 disables)' })
  eventsFile = Option.String('--events-file', { description: 'Also append events here (default $BRAIN_HOME/supervisor-events.jsonl)' })
  healthInterval = Option.String('--health-interval', { description: 'Database check interval (default 30s)' })
  autopilotCron = Option.String('--autopilot-cron', { description: `Autopilot schedule for the worker (default "${DEFAULT_AUTOPILOT_CRON}"; off)` })
  noRetryConnect = Option.Boolean('--no-retry-connect', false, { description: 'Worker fails at once when the database is unreachable' })

  protected async run(): Promise<number> {
    const { join } = await import('node:path')
    const { runSupervisor } = await import('../../../supervisor/run.js')
    const { parseDurationMs } = await import('../../config/index.js')
    const config = await this.loadConfig({ noRetryConnect: this.noRetryConnect })
    const maxRss = positive('--max-rss', this.maxRss, true) ?? 2048
    const end = await runSupervisor({
      config,
      env: this.context.env,
      stdout: this.context.stdout,
      eventsFile: this.eventsFile ?? join(config.home, 'supervisor-events.jsonl'),
      healthIntervalMs: parseDurationMs('--health-interval', this.healthInterval, 30_000) || 30_000,
      worker: {
        concurrency: positive('--concurrency', this.concurrency) ?? 1,
        maxRssMb: maxRss === 0 ? null : maxRss,
        autopilotCron: (this.autopilotCron ?? DEFAULT_AUTOPILOT_CRON) === 'off' ? null : (this.autopilotCron ?? DEFAULT_AUTOPILOT_CRON),
        noRetryConnect: this.noRetryConnect,
      },
    })
    return end === 'gave_up' ? 1 : 0
  }
}
