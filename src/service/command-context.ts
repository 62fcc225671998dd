import type { BaseContext } from 'clipanion'
import type { EngineConfig } from '../config/index.js'
import type { Database } from '../db/index.js'

/**
 * What a process that keeps brains open offers the commands it runs: the resident service
 * shares one open database per engine between all of its clients and runs the embedded
 * engine's worker.
 */
export interface BrainHost {
  /** The shared, already-open database of this engine; commands must not close it. */
  database(engine: EngineConfig, onRetry?: (attempt: number, delayMs: number) => void): Promise<Database>
  /** The worker this host runs on that database, if any (once it has started). */
  workerOn(db: Database): Promise<{ pid: number; id: string; concurrency: number } | null>
  /**
   * Attaches a `jobs work` command to that worker: while any is attached, the worker keeps the
   * autopilot schedule it asked for. Null when the host runs no worker there.
   */
  attachWorker(db: Database, options: { autopilotCron: string | null }): Promise<AttachedWorker | null>
  /**
   * The local web app on 127.0.0.1 over this database, started on first use (`port` 0: any
   * free port) and kept while the host runs; returns its address and a one-time sign-in link.
   */
  webApp(db: Database, options: { port: number; version: string }): Promise<{ base: string; signInUrl: string }>
}

export interface AttachedWorker {
  pid: number
  id: string
  concurrency: number
  detach(): Promise<void>
}

/**
 * What every brain command runs with: clipanion's command context, widened. `cwd` is the
 * caller's working directory (relative paths on the command line resolve against it); `signal`
 * aborts when the caller goes away or presses Ctrl-C; `host` is set inside the resident service.
 */
export interface CommandContext extends BaseContext {
  cwd: string
  host?: BrainHost
  signal?: AbortSignal
  /** Runs another command line in this process (the service hands it to its sessions). */
  runCli?: (argv: string[], context: CommandContext) => Promise<number>
  /** This process runs this one short command and exits (not an import, a server or a worker). */
  oneShot?: boolean
}
