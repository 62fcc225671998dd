import type { Database } from '../db/index.js'
import type { Logger } from '../util/index.js'
import { storeProgress } from './boss-sql.js'
import type { JobName, JobProgress } from './types.js'

interface ProgressWriter {
  write(p: JobProgress): void
  /** Stores the latest progress not yet written, then stops writing. */
  close(): Promise<void>
}

/**
 * Stores a running job's progress on its record (and NOTIFYs waiters), at most once per
 * `throttleMs`; the latest value always lands.
 */
export function createProgressWriter(db: Database, job: { name: JobName; id: string; fence: number }, options: { throttleMs: number; notify: boolean; logger: Logger }): ProgressWriter {
  let latest: JobProgress | null = null
  let lastWrite = 0
  let timer: NodeJS.Timeout | null = null
  let writing: Promise<void> = Promise.resolve()
  let closed = false
  const flush = (): void => {
    timer = null
    const value = latest
    latest = null
    if (value === null) return
    lastWrite = Date.now()
    writing = writing
      .then(() => storeProgress(db, job, value, options.notify))
      .catch((err: unknown) => options.logger.warn(`could not store progress of job ${job.id}`, { error: err instanceof Error ? err.message : String(err) }))
  }
  return {
    write(p) {
      if (closed) return
      latest = p
      const wait = lastWrite + options.throttleMs - Date.now()
      if (wait <= 0) flush()
      else timer ??= setTimeout(flush, wait)
    },
    async close() {
      if (timer) clearTimeout(timer)
      if (!closed) flush()
      closed = true
      await writing
    },
  }
}
