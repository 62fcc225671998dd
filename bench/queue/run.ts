/**
 * Queue benchmark: submit throughput, drain throughput of one worker with batched claims, and
 * submit-to-completion latency with an idle worker, on each engine; plus what an inline run adds
 * to a CLI command on the embedded engine.
 *
 *   node dist/bench/queue/run.js [pglite] [postgres] [--jobs N] [--concurrency N]
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { loadConfig } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { insertJobs } from '../../src/queue/boss-sql.js'
import { buildEnvelope } from '../../src/queue/envelope.js'
import { openQueue, type Queue } from '../../src/queue/index.js'
import { leaseSeconds, resolveTimings } from '../../src/queue/settings.js'
import { signalsFor } from '../../src/queue/signals.js'
import { silentLogger } from '../../src/util/logger.js'
import type { HandlerResolver } from '../../workers/registry.js'
import { Worker } from '../../src/queue/worker.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const noop: HandlerResolver = async () => async () => null
const config = loadConfig({ env: { BRAIN_HOME: '/nonexistent-bench-home' } })

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function submitThroughput(queue: Queue, n: number, parallel: number): Promise<number> {
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < n) {
        next++
        await queue.submit('embed', { i: next })
      }
    }),
  )
  return n / ((performance.now() - started) / 1000)
}

async function preload(db: Database, n: number): Promise<void> {
  const envelope = buildEnvelope('embed', {}, {})
  const lease = leaseSeconds(envelope.timeout_ms, resolveTimings())
  for (let i = 0; i < n; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, n - i) }, () => ({
      id: crypto.randomUUID(),
      name: 'embed' as const,
      data: envelope,
      priority: 0,
      retryLimit: 1,
      expireInSeconds: lease,
    }))
    await insertJobs(db, batch)
  }
}

async function drainThroughput(db: Database, n: number, concurrency: number): Promise<number> {
  await db.exec(`DELETE FROM brain_queue.job`)
  await preload(db, n)
  const worker = new Worker({ db, config, logger: silentLogger, concurrency, resolver: noop, bossRuntime: false })
  const started = performance.now()
  await worker.start()
  while (worker.counters.completed < n) await new Promise((r) => setTimeout(r, 5))
  const seconds = (performance.now() - started) / 1000
  await worker.stop()
  return n / seconds
}

async function latency(db: Database, queue: Queue, n: number): Promise<{ p50: number; p95: number }> {
  const worker = new Worker({ db, config, logger: silentLogger, concurrency: 1, resolver: noop, bossRuntime: false })
  await worker.start()
  const signals = signalsFor(db)
  const waiting = new Map<string, () => void>()
  const unsubscribe = await signals.subscribe((e) => {
    if (e.e === 'done') for (const id of e.ids) waiting.get(id)?.()
  })
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    await new Promise((r) => setTimeout(r, 20)) // the worker is idle when each job arrives
    const started = performance.now()
    let done!: () => void
    const finished = new Promise<void>((r) => (done = r))
    const job = await queue.submit('embed', {})
    waiting.set(job.id, done)
    if ((await queue.get(job.id))?.status !== 'completed') await finished
    samples.push(performance.now() - started)
    waiting.delete(job.id)
  }
  await unsubscribe()
  await worker.stop()
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

/** An inline submitAndWait of a job that does nothing: what running a verb as a job costs. */
async function inlineOverhead(db: Database, n: number): Promise<{ p50: number; p95: number }> {
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    const queue = await openQueue({ db, config, logger: silentLogger, resolver: noop })
    await queue.submitAndWait('embed', {})
    await queue.close()
    samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

/** Loading the queue modules in a fresh process, as a CLI command does once. */
function importCost(): number {
  const modulePath = fileURLToPath(new URL('../../src/queue/index.js', import.meta.url))
  const script = `const t = performance.now(); await import(${JSON.stringify(modulePath)}); await import(${JSON.stringify(fileURLToPath(new URL('../../workers/registry.js', import.meta.url)))}); console.log(performance.now() - t)`
  const runs = [0, 1, 2, 3, 4].map(() => Number(spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).stdout.trim()))
  return runs.sort((a, b) => a - b)[2]!
}

async function bench(engine: BenchEngine, jobs: number, concurrency: number): Promise<void> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const queue = await openQueue({ db, config, logger: silentLogger, resolver: noop })
    const sequential = await submitThroughput(queue, Math.min(jobs, 2000), 1)
    const parallel = engine === 'postgres' ? await submitThroughput(queue, Math.min(jobs, 4000), 8) : null
    const drain = await drainThroughput(db, jobs, concurrency)
    const lat = await latency(db, queue, 200)
    const row = (metric: string, value: string): void => console.log(`| ${engine} | ${metric} | ${value} |`)
    row('submit, one at a time', `${Math.round(sequential)} jobs/s`)
    if (parallel !== null) row('submit, 8 in parallel', `${Math.round(parallel)} jobs/s`)
    row(`drain, 1 worker, concurrency ${concurrency}, ${jobs} no-op jobs`, `${Math.round(drain)} jobs/s`)
    row('submit → completed, idle worker (p50 / p95)', `${lat.p50.toFixed(1)} ms / ${lat.p95.toFixed(1)} ms`)
    if (!db.capabilities.multiProcess) {
      const inline = await inlineOverhead(db, 50)
      row('inline submitAndWait of a no-op job (p50 / p95)', `${inline.p50.toFixed(1)} ms / ${inline.p95.toFixed(1)} ms`)
    }
  } finally {
    await close()
  }
}

const engines = enginesFromArgs(process.argv.slice(2))
const jobs = flag('--jobs', 10_000)
const concurrency = flag('--concurrency', 64)
console.log('| engine | metric | result |\n|---|---|---|')
try {
  for (const engine of engines) await bench(engine, jobs, concurrency)
  console.log(`| both | loading the queue modules in a fresh process (median of 5) | ${importCost().toFixed(0)} ms |`)
} finally {
  stopBenchCluster()
}
