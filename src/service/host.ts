import type { BrainHost } from '../cli/context.js'
import type { Config, EngineConfig } from '../config/index.js'
import type { Database } from '../db/types.js'
import type { Logger } from '../util/logger.js'
import type { Worker } from '../../workers/worker.js'

interface OpenBrain {
  db: Database
  worker: Worker | null
}

/** One key per brain: the data directory of an embedded brain, the URL of a server one. */
function engineKey(engine: EngineConfig): string {
  return engine.kind === 'postgres' && engine.url ? `postgres:${engine.url}` : `pglite:${engine.dataDir}`
}

/**
 * The brains the service keeps open, shared by every command it runs. An engine that only
 * one process can open also gets the service's queue worker, so commands submit jobs and wait
 * exactly as they do on the server engine with a live worker.
 */
export class ServiceHost implements BrainHost {
  private readonly brains = new Map<string, Promise<OpenBrain>>()
  private readonly settled: OpenBrain[] = []

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
    private readonly workerConcurrency = 1,
  ) {}

  async database(engine: EngineConfig, onRetry?: (attempt: number, delayMs: number) => void): Promise<Database> {
    const key = engineKey(engine)
    let opening = this.brains.get(key)
    if (!opening) {
      opening = this.open(engine, onRetry)
      this.brains.set(key, opening)
      // A failed open (the brain is locked by an in-process command, the server is down) is
      // not kept: the next command tries again.
      opening.catch(() => this.brains.delete(key))
    }
    return (await opening).db
  }

  workerOn(db: Database): { pid: number; id: string; concurrency: number } | null {
    for (const brain of this.settled) {
      if (brain.db === db && brain.worker) return { pid: process.pid, id: brain.worker.id, concurrency: this.workerConcurrency }
    }
    return null
  }

  /** Jobs the service's workers are running now. */
  get runningJobs(): number {
    let count = 0
    for (const brain of this.settled) count += brain.worker?.inFlightCount ?? 0
    return count
  }

  get locations(): string[] {
    return this.settled.map((b) => b.db.location)
  }

  /** Stops the workers (their jobs go back to the queue) and closes every brain. */
  async close(): Promise<void> {
    const brains = await Promise.allSettled([...this.brains.values()])
    this.brains.clear()
    this.settled.length = 0
    for (const result of brains) {
      if (result.status !== 'fulfilled') continue
      await result.value.worker?.stop().catch((err: unknown) => this.logger.warn(`worker stop: ${String(err)}`))
      await result.value.db.close().catch((err: unknown) => this.logger.warn(`close: ${String(err)}`))
    }
  }

  private async open(engine: EngineConfig, onRetry?: (attempt: number, delayMs: number) => void): Promise<OpenBrain> {
    const { openDatabase } = await import('../db/open.js')
    const db = await openDatabase(engine, { onRetry })
    let worker: Worker | null = null
    try {
      if (!db.capabilities.multiProcess) worker = await this.startWorker(db)
    } catch (err) {
      await db.close()
      throw err
    }
    this.logger.info(`opened ${db.location}${worker ? `, worker ${worker.id}` : ''}`)
    const brain = { db, worker }
    this.settled.push(brain)
    return brain
  }

  private async startWorker(db: Database): Promise<Worker> {
    const [{ openQueue }, { Worker }] = await Promise.all([import('../queue/index.js'), import('../../workers/worker.js')])
    // Opening the queue first returns jobs left active by a service that died to the queue,
    // before this worker starts claiming.
    const queue = await openQueue({ db, config: this.config, logger: this.logger })
    await queue.close()
    const worker = new Worker({ db, config: this.config, logger: this.logger, concurrency: this.workerConcurrency, autopilotCron: null })
    await worker.start()
    return worker
  }
}
