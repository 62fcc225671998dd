/**
 * bench/ask: how long a context pack takes to build, in-process, on a brain of generated markdown
 * notes (default 10,000, the bench/import corpus), at the default and a 1,000-token budget. The
 * search runs as `brain context` runs it (hybrid; no chunk carries a vector here, so the vector
 * half finds nothing and the figure is the keyword half plus the pack's own queries).
 *
 * Prints p50 and p95 per budget, and the median of the builds that met their question first. The server engine runs on BRAIN_BENCH_PG_URL when set (e.g. the
 * throwaway cluster of `node dist/test/helpers/cluster-cli.js start`), else on a cluster it starts.
 *
 *   node dist/bench/ask/run.js [pglite] [postgres] [--notes N] [--runs N]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildContextPack } from '../../src/answers/index.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import type { SearchDeps } from '../../src/search/index.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const TARGET_P95_MS = 100
const QUESTIONS = [
  'how do I keep a sourdough starter alive?',
  'what is the exposure triangle?',
  'when do garden tomatoes need staking?',
  'how are climbing grades compared?',
  'what goes in the monthly plan?',
  'how do I cut a dovetail joint?',
  'what did the schedule review decide?',
  'how do typescript generics constrain types?',
]

function numberArg(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

function percentile(samples: number[], share: number): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!
}

async function measure(engine: BenchEngine, root: string, runs: number): Promise<void> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const imported = await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
    process.stdout.write(`${engine}: ${imported.created} pages, ${imported.chunks} chunks\n`)
    const embedder = createEmbeddingProvider({ provider: 'local' })
    const search: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    await buildContextPack({ search }, QUESTIONS[0]!)
    const seen = new Set([QUESTIONS[0]!])
    for (const budget of [1000, 2000]) {
      const samples: number[] = []
      // Builds of a question met for the first time: the keyword ranking runs for real, where a
      // repeat is served from the search result cache.
      const firstSight: number[] = []
      let tokens = 0
      for (let i = 0; i < runs; i++) {
        const question = QUESTIONS[i % QUESTIONS.length]!
        const started = performance.now()
        const pack = await buildContextPack({ search }, question, { budget })
        const ms = performance.now() - started
        samples.push(ms)
        if (!seen.has(question)) firstSight.push(ms)
        seen.add(question)
        tokens += pack.tokens
      }
      const [p50, p95] = [percentile(samples, 0.5), percentile(samples, 0.95)]
      const first = firstSight.length > 0 ? `${percentile(firstSight, 0.5).toFixed(1)} (${firstSight.length})` : '-'
      const cells = [engine, budget, runs, p50.toFixed(1), p95.toFixed(1), first, (tokens / runs).toFixed(0), p95 <= TARGET_P95_MS ? 'met' : 'missed']
      process.stdout.write(`| ${cells.join(' | ')} |\n`)
    }
  } finally {
    await close()
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-ask-'))
  try {
    writeMarkdownCorpus(root, numberArg(args, '--notes', 10_000))
    for (const engine of enginesFromArgs(args)) await measure(engine, root, numberArg(args, '--runs', 40))
  } finally {
    rmSync(root, { recursive: true, force: true })
    stopBenchCluster()
  }
}

await main()
