import { refreshPlannerStatistics, type Database } from '../db/index.js'
import { maintenanceSql } from './boss-sql.js'
import type { QueueTimings } from './settings.js'
import { rescueStalled } from './rescue.js'
import { pruneWorkers } from './sql/workers.js'

interface HousekeepingOptions {
  timings: QueueTimings
  /** Finished jobs move to pg-boss's archive after this long (pg-boss's default: 12 h). */
  archiveAfterSeconds?: number
  /** Archived jobs are deleted after this many days (pg-boss's default: 7). */
  deleteAfterDays?: number
  /** minion_workers rows silent for this long are removed. */
  forgetWorkersAfterMs?: number
}

/** A job result, so in the JSON spelling the CLI prints. */
interface HousekeepingResult {
  rescued_stalled: number
  forgotten_workers: number
  /** Tables analyzed because they grew (the embedded engine has no autovacuum to do it). */
  analyzed_tables: string[]
}

/**
 * The queue's upkeep, runnable from any process: pg-boss's maintenance (expire jobs past their
 * lease, archive finished ones, drop old archive rows), stall rescue, and forgetting processes
 * that stopped beating long ago. On the embedded engine it also analyzes tables that grew: pages
 * written one at a time (put, capture, MCP) never pass through the import's own refresh.
 */
export async function runHousekeeping(db: Database, options: HousekeepingOptions): Promise<HousekeepingResult> {
  for (const sql of maintenanceSql({ archiveAfterSeconds: options.archiveAfterSeconds ?? 12 * 3600, deleteAfterDays: options.deleteAfterDays ?? 7 })) {
    await db.exec(sql)
  }
  const rescued = await rescueStalled(db, { livenessMs: options.timings.livenessMs, minAgeMs: 2 * options.timings.livenessMs })
  const forgotten = await pruneWorkers(db, options.forgetWorkersAfterMs ?? 24 * 3600_000)
  const analyzed = await refreshPlannerStatistics(db)
  return { rescued_stalled: rescued.length, forgotten_workers: forgotten, analyzed_tables: analyzed }
}
