/**
 * bench/embed: throughput of the local model on 2,000 realistic chunks (the retrieval corpus and
 * generated notes, chunked by the import pipeline) on today's in-process path ('stock') and on
 * the worker-thread path ('fast', 1 and 2 workers, several batch sizes), all in one run; plus
 * single-query latency, cold (a fresh process) and warm, and the largest cosine distance between
 * the two paths' vectors.
 *
 *   node dist/bench/embed/run.js [--chunks N] [--json]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { configureLocalEmbeddings, disposeLocalEmbeddings } from '../../src/embedding/local-runtime.js'
import { importPage, markdownSlugForPath } from '../../src/pages/index.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { openBenchDatabase } from '../lib/engines.js'
import { buildCorpus } from '../retrieval/corpus.js'

interface Row {
  path: string
  workers: number | null
  batch: number
  chunks: number
  seconds: number
  chunksPerSecond: number
  cpuSeconds: number
}

const QUERY = 'how do we rotate the TLS certificates on the staging cluster'

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name)
  return at >= 0 ? Number(process.argv[at + 1]) : fallback
}

async function realisticChunks(count: number): Promise<string[]> {
  const { db, close } = await openBenchDatabase('pglite')
  const notes = mkdtempSync(join(tmpdir(), 'brain-bench-embed-'))
  try {
    for (const page of buildCorpus()) await importPage(db, { slug: page.slug, kind: page.kind, content: page.content, path: page.path })
    writeMarkdownCorpus(notes, 1_200)
    const paths = readdirSync(notes, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.md')).sort()
    for (const path of paths) {
      await importPage(db, { slug: markdownSlugForPath(path), kind: 'markdown', content: readFileSync(join(notes, path), 'utf8'), path })
    }
    const { rows } = await db.query<{ chunk_text: string }>('SELECT chunk_text FROM content_chunks ORDER BY page_id, chunk_index LIMIT $1', [count])
    return rows.map((r) => r.chunk_text)
  } finally {
    await close()
    rmSync(notes, { recursive: true, force: true })
  }
}

async function timeRun(path: 'stock' | 'fast', workers: number | null, batch: number, chunks: string[]): Promise<{ row: Row; vectors: number[][] }> {
  await disposeLocalEmbeddings()
  configureLocalEmbeddings({ mode: path, maxWorkers: workers ?? 1 })
  const provider = createEmbeddingProvider({ provider: 'local', batchSize: batch })
  // Start every worker before timing: the model load is the cold-query figure, not throughput.
  await provider.embed(Array.from({ length: (workers ?? 1) * 2 }, (_, i) => `warm-up ${i}`))
  const cpu = process.cpuUsage()
  const started = performance.now()
  const vectors = await provider.embed(chunks)
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  return {
    row: { path, workers, batch, chunks: chunks.length, seconds, chunksPerSecond: chunks.length / seconds, cpuSeconds: (used.user + used.system) / 1e6 },
    vectors,
  }
}

function cosineDistance(a: number[], b: number[]): number {
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    na += a[i]! * a[i]!
    nb += b[i]! * b[i]!
  }
  return 1 - dot / Math.sqrt(na * nb)
}

async function warmQueryMs(path: 'stock' | 'fast'): Promise<number> {
  await disposeLocalEmbeddings()
  configureLocalEmbeddings({ mode: path })
  const provider = createEmbeddingProvider({ provider: 'local' })
  await provider.embed([QUERY])
  const times: number[] = []
  for (let i = 0; i < 21; i++) {
    const started = performance.now()
    await provider.embed([`${QUERY} ${i}`])
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[10]!
}

/** `--cold <path>`: one query in this fresh process; prints the milliseconds from first call to vector. */
async function coldQuery(path: 'stock' | 'fast'): Promise<void> {
  configureLocalEmbeddings({ mode: path })
  const started = performance.now()
  await createEmbeddingProvider({ provider: 'local' }).embed([QUERY])
  process.stdout.write(`${(performance.now() - started).toFixed(0)}\n`)
  await disposeLocalEmbeddings()
}

function coldQueryMs(path: 'stock' | 'fast'): number {
  const script = fileURLToPath(import.meta.url)
  const runs = [0, 1, 2].map(() => Number(execFileSync(process.execPath, [script, '--cold', path], { encoding: 'utf8' }).trim()))
  return runs.sort((a, b) => a - b)[1]!
}

async function main(): Promise<void> {
  const coldAt = process.argv.indexOf('--cold')
  if (coldAt >= 0) return coldQuery(process.argv[coldAt + 1] === 'stock' ? 'stock' : 'fast')
  const count = argValue('--chunks', 2_000)
  const chunks = await realisticChunks(count)
  const chars = chunks.map((c) => c.length).sort((a, b) => a - b)
  console.error(`${chunks.length} chunks, median ${chars[chars.length >> 1]} chars, p90 ${chars[Math.floor(chars.length * 0.9)]} chars`)
  const rows: Row[] = []
  const stock = await timeRun('stock', null, 32, chunks)
  rows.push(stock.row)
  console.error(JSON.stringify(stock.row))
  let maxDistance = 0
  for (const [workers, batch] of [[1, 4], [2, 1], [2, 4], [2, 16]] as const) {
    const fast = await timeRun('fast', workers, batch, chunks)
    rows.push(fast.row)
    console.error(JSON.stringify(fast.row))
    for (let i = 0; i < chunks.length; i++) maxDistance = Math.max(maxDistance, cosineDistance(stock.vectors[i]!, fast.vectors[i]!))
  }
  const latency = {
    warmStockMs: await warmQueryMs('stock'),
    warmFastMs: await warmQueryMs('fast'),
    coldStockMs: coldQueryMs('stock'),
    coldFastMs: coldQueryMs('fast'),
  }
  await disposeLocalEmbeddings()
  const report = { chunks: chunks.length, rows, maxCosineDistance: maxDistance, latency }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2))
    return
  }
  console.log('| path | workers | batch | chunks | seconds | chunks/s | CPU s |')
  console.log('|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.path} | ${r.workers ?? 'main thread'} | ${r.batch} | ${r.chunks} | ${r.seconds.toFixed(1)} | ${r.chunksPerSecond.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} |`)
  console.log(`\nlargest cosine distance stock vs fast: ${maxDistance.toExponential(2)}`)
  console.log(`single query, warm (median of 21): stock ${latency.warmStockMs.toFixed(1)} ms, fast ${latency.warmFastMs.toFixed(1)} ms`)
  console.log(`single query, cold (fresh process, model load included, median of 3): stock ${latency.coldStockMs} ms, fast ${latency.coldFastMs} ms`)
}

await main()
