import { Command, Option } from 'clipanion'
import type { Config } from '../config/index.js'
import type { Database } from '../db/types.js'
import { toSnakeCaseKeys } from './json-shape.js'
import { reportError, wantsJson, writeJson } from './output.js'

/**
 * Base of every brain command: the `--json/--no-json` switch, error reporting as the agent
 * envelope, and a helper that opens the configured brain for the length of one command.
 */
export abstract class BrainCommand extends Command {
  json = Option.Boolean('--json', { description: 'Print JSON (default when stdout is not a terminal); --no-json forces text' })

  protected abstract run(): Promise<number | void>

  get jsonMode(): boolean {
    return wantsJson(this.json, this.context.stdout)
  }

  async execute(): Promise<number> {
    try {
      return (await this.runRemote()) ?? (await this.run()) ?? 0
    } catch (err) {
      return reportError(err, this.context, this.jsonMode)
    }
  }

  /** On a thin-client install some commands become a remote tool call (src/cli/remote.ts). */
  private async runRemote(): Promise<number | null> {
    const { runRemotely } = await import('./remote.js')
    const path = (this.constructor as { paths?: string[][] }).paths?.[0]?.join(' ') ?? ''
    return runRemotely({ path, options: this as unknown as Record<string, unknown>, env: this.context.env, stdout: this.context.stdout, stderr: this.context.stderr, jsonMode: this.jsonMode, print: (v, h) => this.print(v, h), readStdin: () => this.readStdin() })
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

  /** Opens the brain, runs `fn`, and always closes it. */
  protected async withBrain<T>(fn: (brain: { config: Config; db: Database }) => Promise<T>, options: { noRetryConnect?: boolean } = {}): Promise<T> {
    const config = await this.loadConfig(options)
    const { openDatabase } = await import('../db/open.js')
    const db = await openDatabase(config.engine, {
      onRetry: (attempt, delayMs) => this.context.stderr.write(`brain: database not reachable, retry ${attempt} in ${delayMs / 1000}s\n`),
    })
    try {
      return await fn({ config, db })
    } finally {
      await db.close()
    }
  }

  protected async readStdin(): Promise<string> {
    const chunks: Buffer[] = []
    for await (const chunk of this.context.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
    return Buffer.concat(chunks).toString('utf8')
  }
}
