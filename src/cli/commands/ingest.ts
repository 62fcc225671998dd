import { Command, Option } from 'clipanion'
import { BrainCommand } from '../brain-command.js'

export class IngestDaemonCommand extends BrainCommand {
  static override paths = [['ingest', 'daemon']]
  static override usage = Command.Usage({
    description: 'Run the ingestion daemon: brain-directory watcher, inbox folder and plugin sources',
    details:
      'Events pass validate → dedupe (content hash, 24 h, 5000 entries) → rate limit → an ingest_capture job. Files dropped into $BRAIN_HOME/inbox/ become pages and move to inbox/.archived/<date>/. Plugins are folders with a brain.plugin.json, under $BRAIN_HOME/plugins/ or given with --plugin. Health per source is written to $BRAIN_HOME/ingest/health.json. SIGTERM/SIGINT stop it.',
  })
  dir = Option.String('--dir', { description: 'Brain directory to watch (default: config sync.repo_path)' })
  noWatch = Option.Boolean('--no-watch', false, { description: 'Do not watch the brain directory' })
  noInbox = Option.Boolean('--no-inbox', false, { description: 'Do not read the inbox folder' })
  plugin = Option.Array('--plugin', [], { description: 'A plugin folder (with brain.plugin.json); repeatable' })
  worker = Option.Boolean('--worker', { description: 'Run ingest_capture and embed jobs in this process (default: on for the embedded engine)' })
  noRetryConnect = Option.Boolean('--no-retry-connect', false, { description: 'Fail at once when the database is unreachable' })

  protected async run(): Promise<number> {
    const { join } = await import('node:path')
    const { readConfigValue } = await import('../../config/index.js')
    const { streamLogger } = await import('../../util/logger.js')
    const { runIngestDaemon } = await import('../../intake/ingestion/run-daemon.js')
    const { checkApiVersion, discoverPluginDirs, linkBrainPackage, readPluginManifest } = await import('../../intake/ingestion/plugins.js')
    const config = await this.loadConfig()
    const installed = await discoverPluginDirs(join(config.home, 'plugins'))
    if (installed.length > 0) await linkBrainPackage(join(config.home, 'plugins'))
    const pluginDirs = [...installed, ...this.plugin.map((p) => this.resolvePath(p))]
    // An incompatible plugin stops the daemon before it opens the brain.
    for (const dir of pluginDirs) checkApiVersion(await readPluginManifest(dir))
    const controller = new AbortController()
    let received: NodeJS.Signals | null = null
    const onSignal = (signal: NodeJS.Signals): void => {
      received = signal
      controller.abort()
    }
    // Inside the resident service the caller's interrupt is the context's signal; a process of
    // its own (under the supervisor, say) stops on SIGTERM or SIGINT.
    const outer = this.context.signal
    const onOuter = (): void => controller.abort()
    if (outer) outer.addEventListener('abort', onOuter, { once: true })
    else {
      process.once('SIGTERM', onSignal)
      process.once('SIGINT', onSignal)
    }
    try {
      await this.withBrain(
        async ({ db, config }) => {
          // The command's own stderr: through the service, its lines reach the caller's terminal.
          const logger = streamLogger(this.context.stderr, 'brain ingest')
          const watchDir = this.noWatch ? null : this.dir ? this.resolvePath(this.dir) : await readConfigValue(db, 'sync.repo_path').catch(() => null)
          if (!this.noWatch && !watchDir) logger.warn('no brain directory to watch (set sync.repo_path or pass --dir); the watcher is off')
          await runIngestDaemon({
            db,
            config,
            logger,
            watchDir,
            inboxDir: this.noInbox ? null : join(config.home, 'inbox'),
            pluginDirs,
            // The resident service runs the embedded engine's worker (started now if it waited for a
            // quiet moment); a second one is needed only where that one could not start.
            runWorker: this.worker ?? (!db.capabilities.multiProcess && ((await this.context.host?.workerOn(db)) ?? null) === null),
            healthFile: join(config.home, 'ingest', 'health.json'),
            signal: controller.signal,
            onReady: (sources) => logger.info(`daemon started (pid ${process.pid}; sources: ${sources.join(', ') || 'none'})`),
          })
        },
        { noRetryConnect: this.noRetryConnect },
      )
    } finally {
      outer?.removeEventListener('abort', onOuter)
      process.off('SIGTERM', onSignal)
      process.off('SIGINT', onSignal)
    }
    // 128 + signal number, as a shell reports it, so a supervisor reads a graceful shutdown.
    return received === 'SIGINT' ? 130 : received === 'SIGTERM' ? 143 : 0
  }
}

export class IngestSupervisorCommand extends BrainCommand {
  static override paths = [['ingest', 'supervisor']]
  static override usage = Command.Usage({
    description: 'Run `brain ingest daemon` under the supervisor: restarts with backoff, JSON events on stdout',
    details: 'The same supervisor as `brain jobs supervisor` (worker_exited with likely_cause, health_warn, gives up after 5 consecutive crashes); events are also appended to --events-file.',
  })
  dir = Option.String('--dir', { description: 'Brain directory to watch (default: config sync.repo_path)' })
  noWatch = Option.Boolean('--no-watch', false, { description: 'Do not watch the brain directory' })
  noInbox = Option.Boolean('--no-inbox', false, { description: 'Do not read the inbox folder' })
  plugin = Option.Array('--plugin', [], { description: 'A plugin folder; repeatable' })
  worker = Option.Boolean('--worker', { description: 'Run ingest_capture and embed jobs in the daemon' })
  eventsFile = Option.String('--events-file', { description: 'Also append events here (default $BRAIN_HOME/ingest/supervisor-events.jsonl)' })
  healthInterval = Option.String('--health-interval', { description: 'Database check interval (default 30s)' })

  protected async run(): Promise<number> {
    const { join } = await import('node:path')
    const { runSupervisor } = await import('../../../supervisor/run.js')
    const { parseDurationMs } = await import('../../config/index.js')
    const config = await this.loadConfig()
    const args = ['ingest', 'daemon']
    if (this.dir) args.push('--dir', this.resolvePath(this.dir))
    if (this.noWatch) args.push('--no-watch')
    if (this.noInbox) args.push('--no-inbox')
    for (const p of this.plugin) args.push('--plugin', this.resolvePath(p))
    if (this.worker !== undefined) args.push(this.worker ? '--worker' : '--no-worker')
    const end = await runSupervisor({
      config,
      // A supervised daemon is a process of its own, never a command relayed to the resident service.
      env: { ...this.context.env, BRAIN_NO_SERVICE: '1' },
      stdout: this.context.stdout,
      eventsFile: this.eventsFile ?? join(config.home, 'ingest', 'supervisor-events.jsonl'),
      healthIntervalMs: parseDurationMs('--health-interval', this.healthInterval, 30_000) || 30_000,
      worker: { concurrency: 1, maxRssMb: null, autopilotCron: null, noRetryConnect: false, args },
    })
    return end === 'gave_up' ? 1 : 0
  }
}

export class IngestStatusCommand extends BrainCommand {
  static override paths = [['ingest', 'status']]
  static override usage = Command.Usage({ description: "Show the ingestion daemon's health per source (from $BRAIN_HOME/ingest/health.json)" })

  protected async run(): Promise<number> {
    const { readFile } = await import('node:fs/promises')
    const { join } = await import('node:path')
    const { NotFoundError } = await import('../../errors/index.js')
    const config = await this.loadConfig()
    const path = join(config.home, 'ingest', 'health.json')
    const raw = await readFile(path, 'utf8').catch(() => null)
    if (raw === null) throw new NotFoundError('ingest_daemon_not_running', `No health file at ${path}.`, { hint: 'Start the daemon with `brain ingest daemon`.' })
    const health = JSON.parse(raw) as { pid: number; updated_at: string; sources: Array<Record<string, unknown>> }
    this.print(health, () =>
      [
        `daemon pid ${health.pid}, updated ${health.updated_at}`,
        ...health.sources.map(
          (s) =>
            `${String(s.id).padEnd(10)} ${String(s.state).padEnd(8)} dispatched ${s.dispatched}  duplicates ${s.duplicates}  failures ${s.failures}${s.last_error ? `  last error: ${s.last_error}` : ''}`,
        ),
      ].join('\n'),
    )
    return 0
  }
}
