import { Command, Option } from 'clipanion'
import { resolve } from 'node:path'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import { NotAvailableError } from '../errors/index.js'
import type { Operation, TextView } from '../operations/index.js'
import type { JobProgress } from '../queue/index.js'
import type { CommandContext } from '../service/index.js'
import { toSnakeCaseKeys } from '../util/json-shape.js'
import { isTerminal, reportError, wantsJson, writeJson } from './output.js'

/** How a command watches an operation it runs in this process (a remote call reports only its result). */
interface RunOptions {
  dryRun?: boolean
  onText?: (text: string) => void
  onProgress?: (progress: JobProgress) => void
  signal?: AbortSignal
}

/**
 * Base of every brain command: the `--json/--no-json` switch, error reporting as the agent
 * envelope, and a helper that opens the configured brain for the length of one command.
 */
export abstract class BrainCommand extends Command<CommandContext> {
  json = Option.Boolean('--json', { description: 'Print JSON (default when stdout is not a terminal); --no-json forces text' })

  protected abstract run(): Promise<number | void>

  get jsonMode(): boolean {
    return wantsJson(this.json, this.context.stdout)
  }

  async execute(): Promise<number> {
    try {
      return (await this.run()) ?? 0
    } catch (err) {
      return reportError(err, this.context, this.jsonMode)
    }
  }

  /**
   * Runs an operation of the catalogue: in this brain, or as a call of the remote brain's tool on
   * a thin-client install. Either way the result comes back as the tool's JSON with camelCase
   * keys (user-owned maps as they are), so one presenter prints both.
   */
  protected async runOperation(operation: Operation, args: Record<string, unknown>, options: RunOptions = {}): Promise<Record<string, unknown>> {
    const { camelCaseKeys, toSnakeCaseJson } = await import('../util/json-shape.js')
    const noRetryConnect = operation.cli?.connectOnce === true
    const config = await this.loadConfig({ noRetryConnect })
    if (config.remote !== null) {
      const { callRemoteTool } = await import('../mcp/remote-client.js')
      // The working directory is this machine's; the remote brain's sources are not under it.
      const cwdField = operation.cli?.cwdField
      const sent = cwdField === undefined ? args : Object.fromEntries(Object.entries(args).filter(([key]) => key !== cwdField))
      return camelCaseKeys(await callRemoteTool(config.remote, operation.name, sent)) as Record<string, unknown>
    }
    const { streamLogger } = await import('../util/logger.js')
    const logger = streamLogger(this.context.stderr)
    // Opened on the first call only, so an operation that reports a database that does not open (doctor) can.
    let opened: Promise<Database> | undefined
    const database = (): Promise<Database> => (opened ??= this.openDatabaseOf(config))
    const ctx = {
      brain: async () => ({ db: await database(), config }),
      config: async () => config,
      logger,
      dryRun: options.dryRun ?? false,
      remote: false,
      scopes: null,
      remoteSlugPrefixes: [],
      local: { cwd: this.context.cwd, env: this.context.env },
      ...(options.onText ? { onText: options.onText } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }
    try {
      return camelCaseKeys(toSnakeCaseJson(await operation.run(ctx, args))) as Record<string, unknown>
    } finally {
      if (opened && !this.context.host) await (await opened.catch(() => null))?.close()
    }
  }

  /** The configured database: the resident service's shared one inside it, else a fresh connection the caller closes. */
  private async openDatabaseOf(config: Config): Promise<Database> {
    const onRetry = (attempt: number, delayMs: number): void => {
      this.context.stderr.write(`brain: database not reachable, retry ${attempt} in ${delayMs / 1000}s\n`)
    }
    const host = this.context.host
    if (host) return host.database(config.engine, onRetry)
    const { openDatabase } = await import('../db/open.js')
    return openDatabase(config.engine, { onRetry, smallBufferPool: this.context.oneShot === true })
  }

  /** Prints a result with its operation's presenter: `--json` form, or notice and text. */
  protected async present(operation: Operation, result: Record<string, unknown>): Promise<void> {
    const presenter = operation.present
    if (!presenter) return this.print(result, () => JSON.stringify(result, null, 2))
    if (this.jsonMode) return this.print(presenter.json ? presenter.json(result) : result, () => '')
    const notice = presenter.notice?.(result)
    if (notice) this.context.stderr.write(`note: ${notice}\n`)
    const text = await presenter.text(result, this.textView())
    this.print(result, () => text)
  }

  /** Bold emphasis on a terminal unless NO_COLOR is set (no-color.org); plain text elsewhere. */
  private textView(): TextView {
    const styled = isTerminal(this.context.stdout) && (this.context.env.NO_COLOR ?? '') === ''
    return styled ? { emphasis: (word) => `\u001b[1m${word}\u001b[22m` } : {}
  }

  protected print(value: unknown, human: () => string): void {
    if (this.jsonMode) writeJson(this.context.stdout, toSnakeCaseKeys(value))
    else {
      const text = human()
      if (text !== '') this.context.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
    }
  }

  protected async loadConfig(options: { noRetryConnect?: boolean } = {}): Promise<Config> {
    const { loadConfig } = await import('../config/index.js')
    return loadConfig({ env: this.context.env, noRetryConnect: options.noRetryConnect })
  }

  /**
   * Opens the brain, runs `fn`, and closes it again. Inside the resident service the host's
   * shared, already-open database is used instead, and stays open.
   */
  protected async withBrain<T>(fn: (brain: { config: Config; db: Database }) => Promise<T>, options: { noRetryConnect?: boolean } = {}): Promise<T> {
    const config = await this.loadConfig(options)
    this.refuseThinClient(config)
    return this.withBrainOf(config, fn)
  }

  /**
   * A thin-client install has no brain of its own: opening the local engine would create an
   * empty one and answer from it. Commands that are operations go to the remote brain instead;
   * the others run only where the brain is.
   */
  protected refuseThinClient(config: Config): void {
    if (config.remote === null) return
    const command = `brain ${this.path.join(' ')}`
    throw new NotAvailableError('remote_unsupported', `\`${command}\` needs the brain's database, and this install is a thin client of ${config.remote.url}.`, {
      hint: `Run \`${command}\` on the machine that serves the brain, or point BRAIN_HOME at a local brain.`,
    })
  }

  /** withBrain for a configuration the command built itself (`init --url`). */
  protected async withBrainOf<T>(config: Config, fn: (brain: { config: Config; db: Database }) => Promise<T>): Promise<T> {
    const db = await this.openDatabaseOf(config)
    if (this.context.host) return fn({ config, db })
    try {
      return await fn({ config, db })
    } finally {
      await db.close()
    }
  }

  /** A path from the command line, resolved against the caller's working directory. */
  protected resolvePath(path: string): string {
    return resolve(this.context.cwd, path)
  }

  /**
   * Fires when the caller interrupts: the context's signal inside the service, else Ctrl-C on
   * this process.
   */
  protected interruptSignal(reason: () => Error): { signal: AbortSignal; dispose: () => void } {
    const controller = new AbortController()
    const onInterrupt = (): void => controller.abort(reason())
    const outer = this.context.signal
    if (outer) {
      if (outer.aborted) onInterrupt()
      outer.addEventListener('abort', onInterrupt, { once: true })
      return { signal: controller.signal, dispose: () => outer.removeEventListener('abort', onInterrupt) }
    }
    process.once('SIGINT', onInterrupt)
    return { signal: controller.signal, dispose: () => process.off('SIGINT', onInterrupt) }
  }

  /** Asks on stderr and reads one answer line from stdin; end of input counts as no answer. */
  protected async askLine(question: string): Promise<string> {
    const { createInterface } = await import('node:readline')
    return new Promise((resolve) => {
      const rl = createInterface({ input: this.context.stdin, terminal: false })
      let answer: string | null = null
      rl.once('line', (line) => {
        answer = line
        rl.close()
      })
      rl.once('close', () => resolve(answer ?? ''))
      this.context.stderr.write(question)
    })
  }

  protected async readStdin(): Promise<string> {
    const chunks: Buffer[] = []
    for await (const chunk of this.context.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
    return Buffer.concat(chunks).toString('utf8')
  }
}
