/**
 * bench/embed: throughput of the local model on 2,000 realistic chunks (the retrieval corpus and
 * generated notes, chunked by the import pipeline) on the in-process TF.js path ('stock'), the
 * wasm worker-thread path ('fast', 1 and 2 workers, several batch sizes) and the onnxruntime path
 * ('native', several thread/call/batch settings), all in one run; plus single-query latency, cold
 * (a fresh process) and warm, and the largest cosine distance of each path's vectors from stock.
 *
 *   node dist/bench/embed/run.js [--chunks N] [--paths stock,fast,native] [--json]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { configureLocalEmbeddings, disposeLocalEmbeddings } from '../../src/embedding/local/local-runtime.js'
import { importPage, markdownSlugForPath } from '../../src/pages/index.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { openBenchDatabase } from '../lib/engines.js'
import { buildCorpus } from '../retrieval/corpus.js'
import { cosine } from '../../test/embedding/fixed-inputs.js'

type LocalPath = 'stock' | 'fast' | 'native'

/** How one timed run is set up: worker threads for 'fast'; threads per call × calls in flight for 'native'. */
interface Setup {
  path: LocalPath
  workers?: number
  threads?: number
  calls?: number
  batch: number
}

interface Row {
  path: string
  setup: string
  batch: number
  chunks: number
  seconds: number
  chunksPerSecond: number
  cpuSeconds: number
  cpuMsPerChunk: number
  maxCosineDistanceFromStock: number | null
}

const SETUPS: Setup[] = [
  { path: 'stock', batch: 32 },
  { path: 'fast', workers: 1, batch: 4 },
  { path: 'fast', workers: 2, batch: 4 },
  { path: 'fast', workers: 2, batch: 16 },
  { path: 'native', threads: 1, calls: 2, batch: 4 },
  { path: 'native', threads: 1, calls: 2, batch: 8 },
  { path: 'native', threads: 2, calls: 1, batch: 1 },
  { path: 'native', threads: 2, calls: 1, batch: 4 },
  { path: 'native', threads: 2, calls: 1, batch: 8 },
  { path: 'native', threads: 2, calls: 1, batch: 32 },
]

function describe(setup: Setup): string {
  if (setup.path === 'fast') return `${setup.workers} worker${setup.workers === 1 ? '' : 's'}`
  if (setup.path === 'native') return `${setup.threads} thread × ${setup.calls} call${setup.calls === 1 ? '' : 's'}`
  return 'main thread'
}

function configure(setup: Pick<Setup, 'path' | 'workers' | 'threads' | 'calls'>): void {
  configureLocalEmbeddings({
    mode: setup.path,
    ...(setup.workers === undefined ? {} : { maxWorkers: setup.workers }),
    ...(setup.threads === undefined ? {} : { nativeThreads: setup.threads }),
    ...(setup.calls === undefined ? {} : { nativeConcurrency: setup.calls }),
  })
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
    const paths = readdirSync(notes, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.md'))
      .sort()
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

async function timeRun(setup: Setup, chunks: string[], reference: number[][] | undefined): Promise<{ row: Row; vectors: number[][] }> {
  await disposeLocalEmbeddings()
  configure(setup)
  const provider = createEmbeddingProvider({ provider: 'local', batchSize: setup.batch })
  // Start every worker before timing: the model load is the cold-query figure, not throughput.
  await provider.embed(Array.from({ length: (setup.workers ?? 1) * 2 + 1 }, (_, i) => `warm-up ${i}`))
  const cpu = process.cpuUsage()
  const started = performance.now()
  const vectors = await provider.embed(chunks)
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  const cpuSeconds = (used.user + used.system) / 1e6
  let distance: number | null = null
  if (reference !== undefined) distance = Math.max(0, ...chunks.map((_, i) => cosineDistance(reference[i]!, vectors[i]!)))
  return {
    row: {
      path: setup.path,
      setup: describe(setup),
      batch: setup.batch,
      chunks: chunks.length,
      seconds,
      chunksPerSecond: chunks.length / seconds,
      cpuSeconds,
      cpuMsPerChunk: (cpuSeconds * 1000) / chunks.length,
      maxCosineDistanceFromStock: distance,
    },
    vectors,
  }
}

function cosineDistance(a: number[], b: number[]): number {
  return 1 - cosine(a, b)
}

async function warmQueryMs(path: LocalPath): Promise<number> {
  await disposeLocalEmbeddings()
  configure({ path })
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
async function coldQuery(path: LocalPath): Promise<void> {
  configure({ path })
  const started = performance.now()
  await createEmbeddingProvider({ provider: 'local' }).embed([QUERY])
  process.stdout.write(`${(performance.now() - started).toFixed(0)}\n`)
  await disposeLocalEmbeddings()
}

function coldQueryMs(path: LocalPath): number {
  const script = fileURLToPath(import.meta.url)
  const runs = [0, 1, 2].map(() => Number(execFileSync(process.execPath, [script, '--cold', path], { encoding: 'utf8' }).trim()))
  return runs.sort((a, b) => a - b)[1]!
}

function parsePath(value: string | undefined): LocalPath {
  return value === 'stock' || value === 'fast' ? value : 'native'
}

function uptimeLoad(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
}

async function main(): Promise<void> {
  const coldAt = process.argv.indexOf('--cold')
  if (coldAt >= 0) return coldQuery(parsePath(process.argv[coldAt + 1]))
  const count = argValue('--chunks', 2_000)
  const pathsAt = process.argv.indexOf('--paths')
  const paths = new Set((pathsAt >= 0 ? process.argv[pathsAt + 1]! : 'stock,fast,native').split(',').map(parsePath))
  const chunks = await realisticChunks(count)
  const chars = chunks.map((c) => c.length).sort((a, b) => a - b)
  console.error(`${chunks.length} chunks, median ${chars[chars.length >> 1]} chars, p90 ${chars[Math.floor(chars.length * 0.9)]} chars; load ${uptimeLoad()}`)
  const rows: Row[] = []
  let reference: number[][] | undefined
  for (const setup of SETUPS.filter((s) => paths.has(s.path))) {
    const run = await timeRun(setup, chunks, reference)
    if (setup.path === 'stock') reference = run.vectors
    rows.push(run.row)
    console.error(`${JSON.stringify(run.row)} load ${uptimeLoad()}`)
  }
  const latency: Record<string, { warmMs: number; coldMs: number }> = {}
  for (const path of paths) latency[path] = { warmMs: await warmQueryMs(path), coldMs: coldQueryMs(path) }
  await disposeLocalEmbeddings()
  const report = { chunks: chunks.length, load: uptimeLoad(), rows, latency }
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2))
    return
  }
  console.log('| path | setup | batch | chunks | wall s | chunks/s (wall) | CPU s | CPU ms / chunk | max cos distance from stock |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    const distance = r.maxCosineDistanceFromStock === null ? '—' : r.maxCosineDistanceFromStock.toExponential(1)
    console.log(
      `| ${r.path} | ${r.setup} | ${r.batch} | ${r.chunks} | ${r.seconds.toFixed(1)} | ${r.chunksPerSecond.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} | ${r.cpuMsPerChunk.toFixed(1)} | ${distance} |`,
    )
  }
  for (const [path, l] of Object.entries(latency)) console.log(`single query ${path}: warm ${l.warmMs.toFixed(1)} ms (median of 21), cold ${l.coldMs} ms (fresh process, median of 3)`)
  console.log(`load average at the end: ${uptimeLoad()}`)
}

await main()
