/**
 * bench/scale: a brain of the size heavy users keep. Generated markdown notes (default 100,000,
 * the bench/import corpus) and code files (default 20,000, the twelve-language tree) imported
 * through `importFolder`, then on the warm brain: database size, keyword and hybrid p95, get,
 * list and backlinks p95, the re-import of one changed file, and this process's RSS while it
 * serves the searches (on the embedded engine that process is what the service is; on
 * PostgreSQL the server's own memory is not in it). Embedding 500,000 chunks with the local
 * model would take hours here, so a sample of pages is embedded and hybrid search runs over it
 * plus keyword over everything; the result says how many chunks carry vectors.
 *
 *   node dist/bench/scale/run.js [pglite] [postgres] [--notes N] [--code N] [--embed N]
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from '../../src/db/types.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { embedAndStore, pendingChunksOfPages } from '../../src/embedding/store/index.js'
import { importFiles } from '../../src/intake/import/import-files.js'
import { importFolder } from '../../src/intake/import/index.js'
import { getBacklinks } from '../../src/links/index.js'
import { findPage, listPages } from '../../src/pages/index.js'
import { query, search, type SearchDeps } from '../../src/search/index.js'
import { keywordRows } from '../../src/search/keyword.js'
import { planSearch } from '../../src/search/options.js'
import { withSearchTransaction } from '../../src/search/sql.js'
import { writeCodeCorpus } from '../import/code-corpus.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const TARGETS = { keywordP95: 50, hybridP95: 100, rssMb: 1024 }
const QUERIES = ['garden tomatoes', 'dovetail joint', 'typescript generics', 'exposure triangle', 'sourdough starter', 'monthly plan', 'climbing grades', 'schedule review']

function numberArg(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : fallback
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!
}

async function timed(times: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    await run(i)
    samples.push(performance.now() - started)
  }
  return p95(samples)
}

interface Row {
  engine: BenchEngine
  measure: string
  value: string
}

async function measure(engine: BenchEngine, root: string, embedPages: number): Promise<Row[]> {
  const rows: Row[] = []
  const add = (m: string, value: string): void => {
    rows.push({ engine, measure: m, value })
    process.stderr.write(`  ${engine} ${m}: ${value}\n`)
  }
  const { db, close } = await openBenchDatabase(engine)
  try {
    let started = performance.now()
    const notes = await importFolder(db, join(root, 'notes'), { strategy: 'markdown', sourceId: 'default', embedder: null })
    let seconds = (performance.now() - started) / 1000
    add('import markdown notes', `${notes.created} pages, ${notes.chunks} chunks in ${seconds.toFixed(1)} s (${(notes.chunks / seconds).toFixed(0)} chunks/s)`)
    started = performance.now()
    const code = await importFolder(db, join(root, 'code'), { strategy: 'code', sourceId: 'default', embedder: null })
    seconds = (performance.now() - started) / 1000
    add('import code files', `${code.created} pages, ${code.chunks} chunks in ${seconds.toFixed(1)} s (${(code.chunks / seconds).toFixed(0)} chunks/s)`)
    add('database size', `${((await databaseBytes(db)) / 1048576).toFixed(0)} MiB`)

    const embedder = createEmbeddingProvider({ provider: 'local' })
    const { rows: sample } = await db.query<{ id: number }>(`SELECT id FROM pages WHERE page_kind = 'markdown' ORDER BY id LIMIT $1`, [embedPages])
    started = performance.now()
    const embedded = await embedAndStore(
      db,
      embedder,
      await pendingChunksOfPages(
        db,
        sample.map((r) => Number(r.id)),
      ),
    )
    add('embedded sample', `${embedded.embedded} chunks of the first ${sample.length} notes in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    const context: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    await search(context, QUERIES[0]!)
    await query(context, QUERIES[0]!)
    let rss = process.memoryUsage().rss
    const keyword = await timed(100, async (i) => {
      await search(context, QUERIES[i % QUERIES.length]!, { limit: 10 })
      rss = Math.max(rss, process.memoryUsage().rss)
    })
    add('keyword search p95', `${keyword.toFixed(1)} ms (target ${TARGETS.keywordP95} ms)`)
    // The ranking alone, never from kept results: through the impact tiers and, on the same
    // brain, over every candidate (what each search cost before the tiers).
    const plan = planSearch({ limit: 10 }, context.settings)
    for (const exhaustive of [false, true]) {
      const ranking = await timed(40, (i) => withSearchTransaction(db, (tx) => keywordRows(tx, plan, { query: QUERIES[i % QUERIES.length]!, match: 'any', perPage: true, exhaustive })))
      add(`keyword ranking p95, uncached, ${exhaustive ? 'every candidate' : 'impact tiers'}`, `${ranking.toFixed(1)} ms`)
    }
    const hybrid = await timed(50, async (i) => {
      await query(context, QUERIES[i % QUERIES.length]!, { limit: 10 })
      rss = Math.max(rss, process.memoryUsage().rss)
    })
    add('hybrid query p95', `${hybrid.toFixed(1)} ms (target ${TARGETS.hybridP95} ms)`)
    add('process RSS while searching', `${(rss / 1048576).toFixed(0)} MiB (target ${TARGETS.rssMb} MiB)`)

    const { rows: slugs } = await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE page_kind = 'markdown' ORDER BY random() LIMIT 200`)
    add('get p95', `${(await timed(200, (i) => findPage(db, 'default', slugs[i]!.slug))).toFixed(2)} ms`)
    add('list p95 (newest 100)', `${(await timed(100, (i) => listPages(db, { limit: 100, offset: (i % 10) * 100 }))).toFixed(2)} ms`)
    add('backlinks p95', `${(await timed(200, (i) => getBacklinks(db, slugs[i]!.slug))).toFixed(2)} ms`)

    // The write side of an incremental sync: one changed file through the import pipeline.
    const relativePath = readdirSync(join(root, 'notes'), { recursive: true, encoding: 'utf8' }).find((p) => p.endsWith('.md'))!
    const changedPath = join(root, 'notes', relativePath)
    const original = readFileSync(changedPath, 'utf8')
    writeFileSync(changedPath, `${original}\nOne more line about the garden.\n`)
    try {
      started = performance.now()
      const file = { relativePath, absolutePath: changedPath, kind: 'markdown' as const, size: 0 }
      const result = await importFiles(db, [file], { sourceId: 'default', embedder: null })
      add('re-import of one changed file', `${(performance.now() - started).toFixed(0)} ms (${result.updated} updated)`)
    } finally {
      writeFileSync(changedPath, original)
    }
  } finally {
    await close()
  }
  return rows
}

async function databaseBytes(db: Database): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes')
  return Number(rows[0]!.bytes)
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const noteCount = numberArg(args, '--notes', 100_000)
  const codeFiles = numberArg(args, '--code', 20_000)
  const embedPages = numberArg(args, '--embed', 2_000)
  const engines = enginesFromArgs(args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')))
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-scale-'))
  const rows: Row[] = []
  try {
    mkdirSync(join(root, 'notes'))
    mkdirSync(join(root, 'code'))
    process.stderr.write(`writing ${noteCount} notes and about ${codeFiles} code files\n`)
    writeMarkdownCorpus(join(root, 'notes'), noteCount)
    writeCodeCorpus(join(root, 'code'), Math.max(1, Math.round(codeFiles / 12)))
    for (const engine of engines) rows.push(...(await measure(engine, root, embedPages)))
  } finally {
    rmSync(root, { recursive: true, force: true })
    stopBenchCluster()
  }
  console.log('| engine | measure | result |')
  console.log('|---|---|---|')
  for (const row of rows) console.log(`| ${row.engine} | ${row.measure} | ${row.value} |`)
}

await main()
