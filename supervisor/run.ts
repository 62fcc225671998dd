import type { Writable } from 'node:stream'
import type { Config } from '../src/config/index.js'
import { openDatabase, type Database } from '../src/db/index.js'
import { jsonLinesSink } from './events.js'
import { HealthMonitor } from './health.js'
import { spawnWorkerProcess, type WorkerCommand } from './spawn.js'
import { Supervisor, type SupervisorEnd } from './supervisor.js'

interface RunSupervisorOptions {
  config: Config
  env: Record<string, string | undefined>
  stdout: Writable
  eventsFile: string | null
  healthIntervalMs: number
  worker: WorkerCommand
}

/**
 * `brain jobs supervisor`: migrates once, then keeps a worker process alive. Database health is
 * checked only where another process may hold a connection beside the worker; the embedded
 * engine's single opener is the worker itself.
 */
export async function runSupervisor(options: RunSupervisorOptions): Promise<SupervisorEnd> {
  let db: Database | null = await openDatabase(options.config.engine)
  if (!db.capabilities.multiProcess) {
    await db.close()
    db = null
  }
  const events = jsonLinesSink({ stream: options.stdout, file: options.eventsFile })
  const reopen = { ...options.config.engine, retryConnect: false }
  const health = db
    ? new HealthMonitor({
        events,
        intervalMs: options.healthIntervalMs,
        probe: async () => {
          await db!.query('SELECT 1')
        },
        reconnect: async () => {
          await db?.close().catch(() => undefined)
          db = await openDatabase(reopen, { migrate: false })
        },
      })
    : null
  const supervisor = new Supervisor({
    events,
    health,
    spawnWorker: () => spawnWorkerProcess(options.worker, options.env as NodeJS.ProcessEnv),
  })
  const onSignal = (signal: NodeJS.Signals): void => void supervisor.stop(signal)
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
  try {
    supervisor.start()
    return await supervisor.done
  } finally {
    process.off('SIGTERM', onSignal)
    process.off('SIGINT', onSignal)
    await db?.close().catch(() => undefined)
  }
}
