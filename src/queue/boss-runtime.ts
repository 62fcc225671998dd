import type { Database } from '../db/index.js'
import { UsageError } from '../errors/index.js'
import { QUEUE_SCHEMA } from './boss-sql.js'
import { buildEnvelope } from './envelope.js'
import { pgBossDb } from './pgboss-adapter.js'
import { leaseSeconds, type QueueTimings } from './settings.js'
import type { Logger } from '../util/index.js'

export interface BossRuntime {
  /** Replaces the recurring autopilot schedule (null removes it). */
  setAutopilotCron(cron: string | null): Promise<void>
  stop(): Promise<void>
}

type Boss = import('pg-boss')

async function applyAutopilotCron(boss: Boss, cron: string | null, timings: QueueTimings): Promise<void> {
  if (!cron) return void (await boss.unschedule('autopilot-cycle'))
  const envelope = buildEnvelope('autopilot-cycle', {}, {})
  await boss
    .schedule('autopilot-cycle', cron, envelope as unknown as object, {
      tz: 'UTC',
      retryLimit: envelope.max_stalled,
      expireInSeconds: leaseSeconds(envelope.timeout_ms, timings),
    })
    .catch((err: unknown) => {
      throw new UsageError('invalid_cron', `"${cron}" is not a cron expression pg-boss accepts.`, {
        hint: 'Use five fields, e.g. "*/30 * * * *" (every 30 minutes, UTC), or off.',
        cause: err,
      })
    })
}

/**
 * pg-boss's own background machinery, for long-lived workers only: maintenance (expire jobs
 * past their lease, archive and drop old ones) and cron schedules, both coordinated across
 * processes by pg-boss. The recurring autopilot cycle is one of those schedules; workers
 * started with a different cron (or none) replace it.
 */
export async function startBossRuntime(db: Database, logger: Logger, options: { autopilotCron: string | null; timings: QueueTimings }): Promise<BossRuntime> {
  const { default: PgBoss } = await import('pg-boss')
  const seam = pgBossDb(db)
  const boss = new PgBoss({ db: seam, schema: QUEUE_SCHEMA, migrate: true, supervise: true, schedule: true })
  boss.on('error', (err: Error) => logger.warn(`pg-boss: ${err.message}`))
  await boss.start()
  const stop = async (): Promise<void> => {
    await boss.stop({ graceful: false, close: false, wait: true })
    await seam.close()
  }
  try {
    await applyAutopilotCron(boss, options.autopilotCron, options.timings)
  } catch (err) {
    await stop()
    throw err
  }
  return { stop, setAutopilotCron: (cron) => applyAutopilotCron(boss, cron, options.timings) }
}
