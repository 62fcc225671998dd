/**
 * bench/cli: wall time of one `brain` call as a fresh process, through the resident service
 * (cold: service not running; warm: running) and in-process (BRAIN_NO_SERVICE=1), on the
 * embedded engine with the 10,000-page corpus of bench/search; and `brain init` of a new embedded
 * brain, cold, in a fresh home each run (`--init-only` measures just that).
 *
 *   node dist/bench/cli/run.js [--pages N] [--calls N] [--init-only] [--json]
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { percentile } from '../retrieval/metrics.js'
import { DEFAULT_SCALE, scaleQueries, writeScaleCorpus } from '../search/corpus.js'

type Mode = 'service' | 'in-process'
const TARGETS = { searchWarmP50: 150, queryWarmP50: 250, coldFirst: 2000, init: 1500 }
const INIT_RUNS = 5

export interface CliBenchRow {
  mode: Mode
  command: string
  coldMs: number
  warm: { p50: number; p95: number; max: number }
}

const BIN = join(packageRoot(), 'bin', 'brain.js')

function call(env: Record<string, string>, args: string[]): number {
  const started = performance.now()
  const run = spawnSync(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', input: '' })
  const ms = performance.now() - started
  if (run.status !== 0) throw new Error(`brain ${args.join(' ')} failed (${run.status}): ${run.stderr}${run.stdout}`)
  return ms
}

function stopService(env: Record<string, string>): void {
  spawnSync(process.execPath, [BIN, 'service', 'stop'], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' })
}

async function loadCorpus(home: string, pages: number): Promise<string> {
  const engine = { kind: 'pglite' as const, dataDir: join(home, 'db'), url: null, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }
  const db = await openDatabase(engine)
  try {
    await db.exec('DROP INDEX IF EXISTS content_chunks_embedding_hnsw_idx')
    await writeScaleCorpus(db, createEmbeddingProvider({ provider: 'local' }), { ...DEFAULT_SCALE, pages, onProgress: (done) => process.stderr.write(`\r  loaded ${done}/${pages} pages`) })
    process.stderr.write('\n')
    await db.exec(`SET maintenance_work_mem = '1GB'`)
    await db.exec('CREATE INDEX content_chunks_embedding_hnsw_idx ON content_chunks USING hnsw (embedding vector_cosine_ops)')
    await db.exec('ANALYZE')
    const { rows } = await db.query<{ slug: string }>('SELECT slug FROM pages ORDER BY id LIMIT 1')
    return rows[0]!.slug
  } finally {
    await db.close()
  }
}

/** The command lines measured; `i` varies the words so no call is a repeat of the last. */
function commands(slug: string, queries: string[]): Array<{ name: string; args: (i: number) => string[] }> {
  return [
    { name: '--version', args: () => ['--version'] },
    { name: 'search', args: (i) => ['search', queries[i % queries.length]!, '--json'] },
    { name: 'query', args: (i) => ['query', queries[i % queries.length]!, '--json'] },
    { name: 'get', args: () => ['get', slug, '--json'] },
    { name: 'capture', args: (i) => ['capture', `bench capture ${i} ${queries[i % queries.length]}`, '--json'] },
  ]
}

function measure(mode: Mode, env: Record<string, string>, slug: string, calls: number): CliBenchRow[] {
  const modeEnv = mode === 'in-process' ? { ...env, BRAIN_NO_SERVICE: '1' } : env
  const queries = scaleQueries(calls + 1)
  const rows: CliBenchRow[] = []
  for (const command of commands(slug, queries)) {
    // Cold: no service running (in-process, every call is cold).
    stopService(env)
    const coldMs = call(modeEnv, command.args(0))
    const samples: number[] = []
    for (let i = 1; i <= calls; i++) samples.push(call(modeEnv, command.args(i)))
    rows.push({ mode, command: command.name, coldMs, warm: { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), max: Math.max(...samples) } })
    const warm = rows.at(-1)!.warm
    process.stderr.write(`  ${mode} ${command.name}: cold ${coldMs.toFixed(0)} ms, warm p50 ${warm.p50.toFixed(0)} / p95 ${warm.p95.toFixed(0)} ms\n`)
  }
  stopService(env)
  return rows
}

/**
 * `brain init` of a new embedded brain in a fresh home, every run cold (through the service, the
 * service starts too). The homes are removed only after the last run: deleting 40 MB of files
 * makes the next file creations on this machine's disk several times slower for a while, which
 * a user's one init never meets.
 */
function measureInit(mode: Mode): CliBenchRow {
  const samples: number[] = []
  const homes: string[] = []
  try {
    for (let i = 0; i < INIT_RUNS; i++) {
      const home = mkdtempSync(join(tmpdir(), 'brain-bench-init-'))
      homes.push(home)
      const env = { BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local', ...(mode === 'in-process' ? { BRAIN_NO_SERVICE: '1' } : {}) }
      samples.push(call(env, ['init', '--json']))
      stopService(env)
    }
  } finally {
    for (const home of homes) rmSync(home, { recursive: true, force: true })
  }
  const row = { mode, command: 'init (new brain)', coldMs: samples[0]!, warm: { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), max: Math.max(...samples) } }
  process.stderr.write(`  ${mode} init: ${samples.map((ms) => ms.toFixed(0)).join(', ')} ms\n`)
  return row
}

function report(rows: CliBenchRow[]): string {
  return [
    '| mode | command | cold first call ms | warm ms p50 / p95 / max |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.mode} | ${r.command} | ${r.coldMs.toFixed(0)} | ${r.warm.p50.toFixed(0)} / ${r.warm.p95.toFixed(0)} / ${r.warm.max.toFixed(0)} |`),
  ].join('\n')
}

function numberArg(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const pages = numberArg(args, '--pages', DEFAULT_SCALE.pages)
  const calls = numberArg(args, '--calls', 10)
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-cli-'))
  const env = { BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local' }
  let rows: CliBenchRow[] = [measureInit('in-process'), measureInit('service')]
  try {
    if (!args.includes('--init-only')) {
      process.stderr.write(`writing ${pages} pages\n`)
      const slug = await loadCorpus(home, pages)
      rows = [...rows, ...measure('service', env, slug, calls), ...measure('in-process', env, slug, calls)]
    }
  } finally {
    stopService(env)
    rmSync(home, { recursive: true, force: true })
  }
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(rows, null, 2)}\n` : `${report(rows)}\n`)
  const served = (name: string): CliBenchRow | undefined => rows.find((r) => r.mode === 'service' && r.command === name)
  const misses = [
    (served('search')?.warm.p50 ?? 0) > TARGETS.searchWarmP50 ? `warm search p50 ${served('search')!.warm.p50.toFixed(0)} ms > ${TARGETS.searchWarmP50} ms` : null,
    (served('query')?.warm.p50 ?? 0) > TARGETS.queryWarmP50 ? `warm query p50 ${served('query')!.warm.p50.toFixed(0)} ms > ${TARGETS.queryWarmP50} ms` : null,
    ...rows.filter((r) => r.mode === 'service' && !r.command.startsWith('init') && r.coldMs > TARGETS.coldFirst).map((r) => `cold ${r.command} ${r.coldMs.toFixed(0)} ms > ${TARGETS.coldFirst} ms`),
    ...rows.filter((r) => r.command.startsWith('init') && r.warm.p50 > TARGETS.init).map((r) => `${r.mode} init p50 ${r.warm.p50.toFixed(0)} ms > ${TARGETS.init} ms`),
  ].filter((m): m is string => m !== null)
  for (const miss of misses) process.stderr.write(`target missed: ${miss}\n`)
  process.exit(misses.length > 0 ? 1 : 0)
}

if (process.argv[1]?.endsWith('/cli/run.js')) await main()
