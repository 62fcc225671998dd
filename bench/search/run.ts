/**
 * bench/search: latency of keyword and hybrid search at 10,000 pages / 50,000 chunks, in process
 * (p50/p95/max over a fixed query mix, hybrid including the local model's query embedding), and
 * the wall time of `brain search` as a fresh process per call.
 *
 *   node dist/bench/search/run.js [pglite] [postgres] [--pages N] [--cli-calls N] [--json]
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import type { Database } from '../../src/db/types.js'
import { createEmbeddingProvider, type EmbeddingProvider } from '../../src/embedding/index.js'
import { query, search, vectorSearch, type SearchDeps } from '../../src/search/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { startPgCluster, type PgCluster } from '../../test/helpers/pg-cluster.js'
import { percentile } from '../retrieval/metrics.js'
import { DEFAULT_SCALE, scaleQueries, writeScaleCorpus } from './corpus.js'

type Engine = 'pglite' | 'postgres'
const TARGETS = { keywordP95: 50, hybridP95: 100, cliP95: 400 }
const engineDefaults = { statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }

interface Latency {
  p50: number
  p95: number
  max: number
}

export interface SearchBenchRow {
  engine: Engine
  pages: number
  chunks: number
  loadSeconds: number
  indexSeconds: number
  keyword: Latency
  /** The same keyword searches asked again with nothing written in between: kept results. */
  keywordRepeat: Latency
  vector: Latency
  hybrid: Latency
  cli: Latency
}

const latency = (ms: number[]): Latency => ({ p50: percentile(ms, 0.5), p95: percentile(ms, 0.95), max: Math.max(...ms) })

/** A brain the CLI can open afterwards: a BRAIN_HOME folder, or a database URL. */
interface BenchBrain {
  env: Record<string, string>
  open(): Promise<Database>
  remove(): Promise<void>
}

let cluster: PgCluster | undefined

async function createBrain(engine: Engine): Promise<BenchBrain> {
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-search-'))
  if (engine === 'pglite') {
    const dataDir = join(home, 'db')
    return {
      env: { BRAIN_HOME: home },
      open: () => openDatabase({ kind: 'pglite', dataDir, url: null, ...engineDefaults }),
      remove: async () => rmSync(home, { recursive: true, force: true }),
    }
  }
  const admin = process.env.BRAIN_BENCH_PG_URL ?? (cluster ??= await startPgCluster()).adminUrl
  const name = `brain_bench_search_${process.pid}`
  const adminDb = await openPostgres({ url: admin, ...engineDefaults })
  await adminDb.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await adminDb.exec(`CREATE DATABASE ${name}`)
  await adminDb.close()
  const url = admin.replace(/\/[^/]*$/, `/${name}`)
  return {
    env: { BRAIN_HOME: home, BRAIN_DATABASE_URL: url },
    open: () => openDatabase({ kind: 'postgres', dataDir: '', url, ...engineDefaults }),
    remove: async () => {
      const again = await openPostgres({ url: admin, ...engineDefaults })
      await again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.close()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** Loads without the HNSW index and builds it afterwards, as a bulk build is far faster. */
async function load(db: Database, embedder: EmbeddingProvider, pages: number): Promise<{ chunks: number; loadSeconds: number; indexSeconds: number }> {
  await db.exec('DROP INDEX IF EXISTS content_chunks_embedding_hnsw_idx')
  const started = performance.now()
  const { chunks } = await writeScaleCorpus(db, embedder, { ...DEFAULT_SCALE, pages, onProgress: (done) => process.stderr.write(`\r  loaded ${done}/${pages} pages`) })
  process.stderr.write('\n')
  const loadSeconds = (performance.now() - started) / 1000
  const indexStarted = performance.now()
  await db.exec(`SET maintenance_work_mem = '1GB'`)
  await db.exec('CREATE INDEX content_chunks_embedding_hnsw_idx ON content_chunks USING hnsw (embedding vector_cosine_ops)')
  await db.exec('ANALYZE')
  return { chunks, loadSeconds, indexSeconds: (performance.now() - indexStarted) / 1000 }
}

/**
 * Warms up on other questions than it times: the timed ones must be ranked, not answered from
 * the kept results of an earlier identical search.
 */
async function time(queries: readonly string[], fn: (q: string) => Promise<unknown>, warmUp: readonly string[]): Promise<Latency> {
  for (const q of warmUp) await fn(q) // warm caches and the model
  const samples: number[] = []
  for (const q of queries) {
    const started = performance.now()
    await fn(q)
    samples.push(performance.now() - started)
  }
  return latency(samples)
}

function cliWallTimes(env: Record<string, string>, queries: readonly string[]): Latency {
  const bin = join(packageRoot(), 'bin', 'brain.js')
  const childEnv = { PATH: process.env.PATH ?? '', ...env }
  const samples: number[] = []
  try {
    for (const q of queries) {
      const started = performance.now()
      const run = spawnSync(process.execPath, [bin, 'search', q, '--json'], { env: childEnv, encoding: 'utf8' })
      samples.push(performance.now() - started)
      if (run.status !== 0) throw new Error(`brain search failed: ${run.stderr}`)
    }
  } finally {
    // The first call started a resident service for this brain; it must not outlive the brain.
    spawnSync(process.execPath, [bin, 'service', 'stop'], { env: childEnv, encoding: 'utf8' })
  }
  return latency(samples)
}

async function measure(engine: Engine, embedder: EmbeddingProvider, pages: number, cliCalls: number): Promise<SearchBenchRow> {
  const brain = await createBrain(engine)
  try {
    const db = await brain.open()
    let row: Omit<SearchBenchRow, 'cli'>
    try {
      process.stderr.write(`${engine}: writing ${pages} pages\n`)
      const loaded = await load(db, embedder, pages)
      const context: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
      const queries = scaleQueries()
      // The generator is seeded: a longer list starts with `queries` and continues with new ones.
      const warmUp = scaleQueries(queries.length + 30).slice(queries.length)
      const hybridWarmUp = warmUp.slice(10, 20)
      const vectorWarmUp = warmUp.slice(20, 30)
      row = {
        engine,
        pages,
        chunks: loaded.chunks,
        loadSeconds: loaded.loadSeconds,
        indexSeconds: loaded.indexSeconds,
        keyword: await time(queries, (q) => search(context, q, { limit: 10 }), warmUp.slice(0, 10)),
        keywordRepeat: await time(queries, (q) => search(context, q, { limit: 10 }), []),
        vector: await time(queries, (q) => vectorSearch(context, q, { limit: 10 }), vectorWarmUp),
        hybrid: await time(queries, (q) => query(context, q, { limit: 10 }), hybridWarmUp),
      }
    } finally {
      await db.close()
    }
    return { ...row, cli: cliWallTimes(brain.env, scaleQueries(cliCalls)) }
  } finally {
    await brain.remove()
  }
}

function report(rows: SearchBenchRow[]): string {
  const ms = (l: Latency) => `${l.p50.toFixed(1)} / ${l.p95.toFixed(1)} / ${l.max.toFixed(1)}`
  return [
    '| engine | pages | chunks | load s | HNSW build s | keyword ms p50/p95/max | keyword repeated (kept) ms p50/p95/max | vector ms p50/p95/max | hybrid ms p50/p95/max | `brain search` wall ms p50/p95/max |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.engine} | ${r.pages} | ${r.chunks} | ${r.loadSeconds.toFixed(1)} | ${r.indexSeconds.toFixed(1)} | ${ms(r.keyword)} | ${ms(r.keywordRepeat)} | ${ms(r.vector)} | ${ms(r.hybrid)} | ${ms(r.cli)} |`,
    ),
  ].join('\n')
}

function numberArg(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const engines = (['pglite', 'postgres'] as const).filter((e) => args.includes(e))
  const embedder = createEmbeddingProvider({ provider: 'local' })
  const rows: SearchBenchRow[] = []
  try {
    for (const engine of engines.length > 0 ? engines : (['pglite', 'postgres'] as const)) {
      rows.push(await measure(engine, embedder, numberArg(args, '--pages', DEFAULT_SCALE.pages), numberArg(args, '--cli-calls', 20)))
    }
  } finally {
    cluster?.stop()
  }
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(rows, null, 2)}\n` : `${report(rows)}\n`)
  const misses = rows
    .flatMap((r) => [
      r.keyword.p95 > TARGETS.keywordP95 ? `${r.engine}: keyword p95 ${r.keyword.p95.toFixed(1)} ms > ${TARGETS.keywordP95} ms` : null,
      r.hybrid.p95 > TARGETS.hybridP95 ? `${r.engine}: hybrid p95 ${r.hybrid.p95.toFixed(1)} ms > ${TARGETS.hybridP95} ms` : null,
      r.cli.p95 > TARGETS.cliP95 ? `${r.engine}: brain search wall p95 ${r.cli.p95.toFixed(0)} ms > ${TARGETS.cliP95} ms` : null,
    ])
    .filter((m): m is string => m !== null)
  for (const miss of misses) process.stderr.write(`target missed: ${miss}\n`)
  process.exit(misses.length > 0 ? 1 : 0)
}

if (process.argv[1]?.endsWith('/search/run.js')) await main()
