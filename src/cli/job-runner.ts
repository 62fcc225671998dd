import type { Writable } from 'node:stream'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import type { JobName, JobProgress } from '../queue/index.js'
import { streamLogger } from '../util/logger.js'
import { isTerminal } from './output.js'
import { RateMeter, rateSuffix } from './progress-rate.js'

/** One status line on a terminal, rewritten in place; nothing when stderr is not a terminal. */
export function progressPrinter(stderr: Writable, label: string): { update: (p: JobProgress) => void; finish: () => void } {
  if (!isTerminal(stderr)) return { update: () => undefined, finish: () => undefined }
  let lastWrite = 0
  let shown = false
  const meter = new RateMeter()
  return {
    update(p) {
      const now = Date.now()
      if (now - lastWrite < 100 && (p.total === undefined || p.done < p.total)) return
      lastWrite = now
      const count = p.total !== undefined ? `${p.done}/${p.total}` : `${p.done}`
      const rate = p.unit === undefined ? '' : rateSuffix(meter, p.done, p.total, p.unit)
      const line = `${label} ${count}${rate}${p.message ? ` ${p.message}` : ''}`
      const width = (stderr as Writable & { columns?: number }).columns ?? 100
      stderr.write(`\r\u001b[2K${line.slice(0, width - 1)}`)
      shown = true
    },
    finish() {
      if (shown) stderr.write('\r\u001b[2K')
    },
  }
}

/**
 * Submits a job and waits for its result, showing progress on a terminal. A live worker runs
 * it (the resident service's, on the embedded engine); without one, this process runs it.
 * `signal` stops the waiting (the caller went away).
 */
export async function runJob(brain: { db: Database; config: Config }, stderr: Writable, name: JobName, data: Record<string, unknown>, label: string = name, signal?: AbortSignal): Promise<unknown> {
  const { openQueue } = await import('../queue/index.js')
  const queue = await openQueue({ db: brain.db, config: brain.config, logger: streamLogger(stderr) })
  const progress = progressPrinter(stderr, label)
  try {
    const job = await queue.submitAndWait(name, data, { onProgress: progress.update, signal })
    return job.result
  } finally {
    progress.finish()
    await queue.close()
  }
}
