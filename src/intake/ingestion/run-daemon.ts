import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from '../../config/index.js'
import type { Database } from '../../db/index.js'
import { countJobsOf } from '../../queue/index.js'
import type { Logger } from '../../util/index.js'
import type { IngestionEngine, IngestionSource } from './contract.js'
import { IngestionDaemon, type SourceHealth } from './daemon.js'
import { submitIngestCapture } from './dispatch.js'
import { loadPlugin } from './plugins.js'
import { InboxSource } from './sources/inbox.js'
import { DirectoryWatcherSource } from './sources/watcher.js'

interface RunDaemonOptions {
  db: Database
  config: Config
  logger: Logger
  /** Brain directory to watch; null leaves the watcher off. */
  watchDir: string | null
  /** Inbox folder; null leaves the inbox off. */
  inboxDir: string | null
  pluginDirs: readonly string[]
  /** Also run `ingest_capture` and `embed` jobs in this process (needed where nothing else can open the brain). */
  runWorker: boolean
  /** Where the health surface is written (JSON, rewritten on every change). */
  healthFile: string
  signal: AbortSignal
  /** Called once every source has started. */
  onReady?: (sources: string[]) => void
}

function engineFor(db: Database): IngestionEngine {
  return {
    async getPage(slug) {
      const { rows } = await db.query<{ slug: string; title: string; content_hash: string }>(`SELECT slug, title, content_hash FROM pages WHERE source_id = 'default' AND slug = $1`, [slug])
      const row = rows[0]
      return row ? { slug: row.slug, title: row.title, contentHash: row.content_hash } : null
    },
  }
}

/** Writes the health surface atomically, at most once per second, and always the last state. */
interface QueueHealth {
  waiting: number
  active: number
  /** When the counts were read; a reader must not trust counts older than what it waits for. */
  checked_at?: string
}

async function ingestQueueHealth(db: Database): Promise<QueueHealth> {
  const counts = await countJobsOf(db, 'ingest_capture', { statuses: ['waiting', 'active'] })
  return { waiting: counts.waiting ?? 0, active: counts.active ?? 0, checked_at: new Date().toISOString() }
}

function healthWriter(path: string, logger: Logger): { update(health: SourceHealth[]): void; updateQueue(queue: QueueHealth): void; flush(): Promise<void> } {
  let latest: SourceHealth[] = []
  let queue: QueueHealth | null = null
  let timer: NodeJS.Timeout | null = null
  let writing = Promise.resolve()
  const write = (): Promise<void> => {
    timer = null
    const body = JSON.stringify({ pid: process.pid, updated_at: new Date().toISOString(), sources: latest, ingest_capture_jobs: queue }, null, 2)
    writing = writing
      .then(async () => {
        await mkdir(join(path, '..'), { recursive: true })
        await writeFile(`${path}.tmp`, `${body}\n`)
        await rename(`${path}.tmp`, path)
      })
      .catch((err: unknown) => logger.warn(`health file: ${String(err)}`))
    return writing
  }
  return {
    update(health) {
      latest = health
      timer ??= setTimeout(() => void write(), 1000)
    },
    updateQueue(counts) {
      queue = counts
      timer ??= setTimeout(() => void write(), 1000)
    },
    async flush() {
      if (timer) clearTimeout(timer)
      await write()
    },
  }
}

/**
 * `brain ingest daemon`: loads the plugins (an incompatible one stops everything before any
 * source starts), then runs the watcher, the inbox and the plugins until `signal` fires.
 */
export async function runIngestDaemon(options: RunDaemonOptions): Promise<void> {
  const { db, config, logger } = options
  const plugins = await Promise.all(options.pluginDirs.map((dir) => loadPlugin(dir)))
  const sources: IngestionSource[] = []
  if (options.watchDir) sources.push(new DirectoryWatcherSource({ dir: options.watchDir }))
  if (options.inboxDir) sources.push(new InboxSource({ dir: options.inboxDir }))
  for (const plugin of plugins) sources.push(plugin.source)
  const { openQueue } = await import('../../queue/index.js')
  const queue = await openQueue({ db, config, logger })
  const health = healthWriter(options.healthFile, logger)
  const daemon = new IngestionDaemon({
    engine: engineFor(db),
    logger,
    onHealthChange: (h) => health.update(h),
    // The watcher re-reads files that may legitimately return to an earlier state, so only the
    // other sources map identical content to one job.
    dispatch: async (event, source) => ({
      jobId: (await submitIngestCapture(queue, event, { clientId: `daemon:${source.id}`, untrusted: false, idempotent: source.id !== 'watcher' })).id,
    }),
  })
  let worker: { stop(): Promise<void> } | null = null
  let queueTimer: NodeJS.Timeout | null = null
  try {
    if (options.runWorker) {
      const { Worker } = await import('../../queue/worker.js')
      const w = new Worker({ db, config, logger, names: ['ingest_capture', 'embed'], bossRuntime: false })
      await w.start()
      worker = w
    }
    for (const source of sources) daemon.start(source)
    // The queue line tells an operator (and the crash test) whether captured events are still pending.
    queueTimer = setInterval(
      () =>
        void ingestQueueHealth(db).then(
          (q) => health.updateQueue(q),
          () => undefined,
        ),
      2000,
    )
    options.onReady?.(sources.map((s) => s.id))
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) return resolve()
      options.signal.addEventListener('abort', () => resolve(), { once: true })
    })
  } finally {
    if (queueTimer) clearInterval(queueTimer)
    await daemon.stop()
    await worker?.stop()
    await queue.close()
    health.updateQueue(await ingestQueueHealth(db).catch(() => ({ waiting: -1, active: -1 })))
    await health.flush()
  }
}
