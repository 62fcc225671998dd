/**
 * Ingest benchmark (server engine; the HTTP server exists only there): sustained `POST /ingest`
 * requests per second accepted while a worker drains the jobs, and end-to-end seconds from the
 * request to a page that keyword search finds.
 *
 *   node dist/bench/ingest/run.js [--seconds N] [--clients N] [--parallel N] [--samples N]
 *
 * The spec's limits (100 events per 10 s per IP, 50 waiting jobs per client) are per client, so
 * the load comes from many: requests spread over 500 X-Forwarded-For addresses (trust proxy on)
 * and `--clients` tokens, round robin. A 429 is counted, not retried.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createToken } from '../../src/auth/index.js'
import { loadConfig } from '../../src/config/index.js'
import { createBrainHttpServer, mcpBuckets } from '../../src/http/index.js'
import { ingestRoutes } from '../../src/http/ingest-route.js'
import { search, searchDeps } from '../../src/search/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { Worker } from '../../src/queue/worker.js'
import { defaultResolver } from '../../workers/registry.js'
import { openBenchDatabase, stopBenchCluster } from '../lib/engines.js'

function flag(name: string, fallback: number): number {
  const index = process.argv.indexOf(name)
  return index >= 0 ? Number(process.argv[index + 1]) : fallback
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

const WORDS = ['harbor', 'lantern', 'quartz', 'meadow', 'cobalt', 'falcon', 'juniper', 'saffron', 'glacier', 'violet']

function note(i: number): string {
  return `# Bench note ${i}\n\n${Array.from({ length: 60 }, (_, k) => WORDS[(i * 7 + k) % WORDS.length]).join(' ')} marker${i}x\n`
}

async function main(): Promise<void> {
  const seconds = flag('--seconds', 20)
  const clients = flag('--clients', 20)
  const parallel = flag('--parallel', 8)
  const samples = flag('--samples', 20)
  const { db, close } = await openBenchDatabase('postgres')
  const config = loadConfig({ env: { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-bench-ingest-')), BRAIN_HTTP_TRUST_PROXY: '1', BRAIN_EMBEDDING_PROVIDER: 'local' } })
  const http = createBrainHttpServer(ingestRoutes(), { db, config, logger: silentLogger, version: 'bench', ...mcpBuckets(config.http) })
  const { port } = await http.listen(0, '127.0.0.1')
  const base = `http://127.0.0.1:${port}`
  const tokens = await Promise.all(Array.from({ length: clients }, async (_, i) => (await createToken(db, `bench-${i}`, ['write'])).token))
  const worker = new Worker({ db, config, logger: silentLogger, concurrency: 2, names: ['ingest_capture'], bossRuntime: false, resolver: defaultResolver })
  await worker.start()
  const post = (i: number): Promise<Response> =>
    fetch(`${base}/ingest`, {
      method: 'POST',
      body: note(i),
      headers: { authorization: `Bearer ${tokens[i % clients]}`, 'content-type': 'text/markdown', 'x-forwarded-for': `10.0.${Math.floor((i % 500) / 250)}.${i % 250}` },
    })

  const counts = { accepted: 0, rateLimited: 0, backlogFull: 0, other: 0 }
  let next = 0
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < deadline) {
        const res = await post(next++)
        const body = (await res.json()) as { error?: string }
        if (res.status === 202) counts.accepted++
        else if (body.error === 'ingest_backlog_full') counts.backlogFull++
        else if (res.status === 429) counts.rateLimited++
        else counts.other++
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  const done = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM minion_jobs WHERE name = 'ingest_capture' AND status = 'completed'")
  console.log(`drained: ${(Number(done.rows[0]!.n) / elapsed).toFixed(1)} ingest_capture jobs/s completed by the worker in the same window`)
  console.log(
    `sustained: ${(counts.accepted / elapsed).toFixed(1)} accepted/s over ${elapsed.toFixed(1)} s (${counts.accepted} accepted, ${counts.backlogFull} backlog_full, ${counts.rateLimited} rate_limited, ${counts.other} other; ${parallel} in flight, ${clients} clients, worker concurrency 2)`,
  )

  // Let the backlog drain so end-to-end latency is measured on an idle queue.
  for (;;) {
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM minion_jobs WHERE name = 'ingest_capture' AND status IN ('waiting', 'active')")
    if (Number(rows[0]!.n) === 0) break
    await new Promise((r) => setTimeout(r, 200))
  }
  const ctx = searchDeps(db, config)
  const latencies: number[] = []
  for (let s = 0; s < samples; s++) {
    const i = 1_000_000 + s
    const t0 = performance.now()
    const res = await post(i)
    if (res.status !== 202) throw new Error(`sample ${s} answered ${res.status}`)
    for (;;) {
      const found = await search(ctx, `marker${i}x`, { limit: 1 })
      if (found.results.length > 0) break
      await new Promise((r) => setTimeout(r, 5))
    }
    latencies.push((performance.now() - t0) / 1000)
  }
  latencies.sort((a, b) => a - b)
  console.log(
    `end-to-end request → keyword-searchable page: p50 ${percentile(latencies, 50).toFixed(3)} s, p95 ${percentile(latencies, 95).toFixed(3)} s, max ${latencies[latencies.length - 1]!.toFixed(3)} s (${samples} samples)`,
  )
  await worker.stop()
  await http.shutdown()
  await close()
  stopBenchCluster()
}

main().catch((err: unknown) => {
  console.error(err)
  stopBenchCluster()
  process.exitCode = 1
})
