/**
 * bench/history: what page history costs and how fast it reads, on both engines.
 * 1. Write cost: 2,000 generated notes imported, then every note edited and imported again (each
 *    update keeps a version), against the same update pass with versions off; alternating runs,
 *    medians reported.
 * 2. `list_versions` (`brain history`, newest 50) of a page with 1,000 versions: p50/p95 over 200 calls.
 * 3. Export of 10,000 pages: pages/s.
 *
 *   node dist/bench/history/run.js [pglite] [postgres]
 */
import { appendFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { exportPages } from '../../src/export/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { listVersionsTool } from '../../src/operations/history.js'
import { importPage } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

function markdownFiles(root: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(root)) {
    const path = join(root, name)
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path))
    else if (name.endsWith('.md')) out.push(path)
  }
  return out
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!

/** One update pass of the whole corpus: each file gains a line, then the folder is imported. */
async function updatePass(db: Database, root: string, round: number, keepVersions: boolean): Promise<number> {
  for (const file of markdownFiles(root)) appendFileSync(file, `\nEdit ${round}.\n`)
  const started = performance.now()
  const result = await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null, keepVersions })
  if (result.updated !== result.files) throw new Error(`expected ${result.files} updates, got ${result.updated}`)
  return (performance.now() - started) / 1000
}

async function writeCost(engine: BenchEngine): Promise<{ on: number; off: number }> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const root = mkdtempSync(join(tmpdir(), 'brain-bench-history-'))
    writeMarkdownCorpus(root, 2000)
    await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
    const on: number[] = []
    const off: number[] = []
    for (let round = 0; round < 6; round++) {
      const keep = round % 2 === 0
      ;(keep ? on : off).push(await updatePass(db, root, round, keep))
    }
    return { on: median(on), off: median(off) }
  } finally {
    await close()
  }
}

async function historyRead(engine: BenchEngine): Promise<{ p50: number; p95: number }> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    for (let i = 0; i <= 1000; i++) {
      await importPage(db, { slug: 'notes/busy', kind: 'markdown', content: `# Busy\n\nRevision ${i} of a page that is written all day.\n${'More text.\n'.repeat(i % 20)}` })
    }
    const config = loadConfig({ env: { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-bench-home-')) } })
    const ctx = { brain: async () => ({ db, config }), logger: memoryLogger(), dryRun: false, remote: false, scopes: null, remoteSlugPrefixes: [] }
    const times: number[] = []
    for (let i = 0; i < 220; i++) {
      const started = performance.now()
      const result = (await listVersionsTool.run(ctx, { slug: 'notes/busy' })) as { versions: unknown[]; total: number }
      if (i >= 20) times.push(performance.now() - started)
      if (result.total !== 1001 || result.versions.length !== 50) throw new Error(`expected 50 of 1,001 entries, got ${result.versions.length} of ${result.total}`)
    }
    return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) }
  } finally {
    await close()
  }
}

async function exportSpeed(engine: BenchEngine): Promise<{ pages: number; seconds: number }> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const root = mkdtempSync(join(tmpdir(), 'brain-bench-export-src-'))
    writeMarkdownCorpus(root, 10_000)
    await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
    const started = performance.now()
    const result = await exportPages(db, join(mkdtempSync(join(tmpdir(), 'brain-bench-export-')), 'out'))
    return { pages: result.written, seconds: (performance.now() - started) / 1000 }
  } finally {
    await close()
  }
}

async function main(): Promise<void> {
  try {
    for (const engine of enginesFromArgs(process.argv.slice(2))) {
      const cost = await writeCost(engine)
      console.log(`${engine}  update pass of 2,000 notes: versions on ${cost.on.toFixed(2)} s, off ${cost.off.toFixed(2)} s (${(((cost.on - cost.off) / cost.off) * 100).toFixed(1)} %)`)
      const read = await historyRead(engine)
      console.log(`${engine}  list_versions of a page with 1,000 versions: p50 ${read.p50.toFixed(2)} ms, p95 ${read.p95.toFixed(2)} ms`)
      const exported = await exportSpeed(engine)
      console.log(`${engine}  export of ${exported.pages} pages: ${exported.seconds.toFixed(2)} s (${Math.round(exported.pages / exported.seconds)} pages/s)`)
    }
  } finally {
    stopBenchCluster()
  }
}

await main()
