/**
 * bench/ask profile: one context pack's build split into its stages (the hybrid search, each
 * database read of src/answers/gather.ts, and the rest: scoring, deduplication and token counting),
 * timed in-process on a brain of generated markdown notes, after one warm-up build.
 *
 * With --fresh each run asks a question not asked before (the sourdough question with the run's
 * number after it), so the keyword ranking runs for real instead of coming from the result cache.
 *
 *   node dist/bench/ask/profile.js [pglite] [postgres] [--notes N] [--runs N] [--fresh]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildContextPack } from '../../src/answers/index.js'
import { chunksById, definitionsNamed, linkedPages, pagesById } from '../../src/answers/gather.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { query, type SearchDeps } from '../../src/search/index.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const QUESTION = 'how do I keep a sourdough starter alive?'

function numberArg(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function profile(engine: BenchEngine, root: string, runs: number, fresh: boolean): Promise<void> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
    const embedder = createEmbeddingProvider({ provider: 'local' })
    const search: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    await buildContextPack({ search }, QUESTION)
    const stages: Record<string, number[]> = { embed: [], query: [], chunks: [], pages: [], links: [], definitions: [], pack: [] }
    for (let i = 0; i < runs; i++) {
      const question = fresh ? `${QUESTION} ${i + 1}` : QUESTION
      let t = performance.now()
      const lap = (name: string): void => {
        const now = performance.now()
        stages[name]!.push(now - t)
        t = now
      }
      await embedder?.embed([question])
      lap('embed')
      const response = await query(search, question, { limit: 20 })
      lap('query')
      const chunks = await chunksById(
        db,
        response.results.map((r) => r.chunk_id),
        null,
      )
      lap('chunks')
      const pageIds = [...new Set(chunks.map((c) => c.page_id))]
      await pagesById(db, pageIds, null)
      lap('pages')
      await linkedPages(db, pageIds.slice(0, 5), null, 20)
      lap('links')
      await definitionsNamed(db, ['sourdough'], null, 10)
      lap('definitions')
      // The pack asks the same question again: with --fresh its own keyword ranking is cached by
      // the query stage above, so this stage is the pack's own work in both modes.
      await buildContextPack({ search }, question, { budget: 1000 })
      lap('pack')
    }
    for (const [name, xs] of Object.entries(stages)) process.stdout.write(`| ${engine} | ${name} | ${median(xs).toFixed(1)} |\n`)
  } finally {
    await close()
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-askprof-'))
  try {
    writeMarkdownCorpus(root, numberArg(args, '--notes', 10_000))
    for (const engine of enginesFromArgs(args)) await profile(engine, root, numberArg(args, '--runs', 10), args.includes('--fresh'))
  } finally {
    rmSync(root, { recursive: true, force: true })
    stopBenchCluster()
  }
}

await main()
