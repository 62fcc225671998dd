/**
 * bench/import/search-during: how long a search takes while a bulk import writes to the same brain,
 * as in the resident service, where a relayed `brain search` and `brain import` share one open
 * database. The import is `importFolder` over the generated notes of bench/import; meanwhile a
 * search (the `search` operation through `callOperation`, as the service runs it) starts 20 ms
 * after the one before ends, cycling through bench/scale's queries and through limits 1 to 50, until
 * the import is done. The same searches on the finished brain give the idle figures beside them.
 *
 *   node dist/bench/import/search-during.js [pglite] [postgres] [--notes N]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callOperation } from '../../src/cli/call-operation.js'
import type { Database } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import type { AttachedWorker, BrainHost } from '../../src/service/index.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { writeMarkdownCorpus } from './corpus.js'

const QUERIES = ['garden tomatoes', 'dovetail joint', 'typescript generics', 'exposure triangle', 'sourdough starter', 'monthly plan', 'climbing grades', 'schedule review']
const PAUSE_MS = 20

/** The service's part this bench needs: one open brain that every command shares. */
class OneBrainHost implements BrainHost {
  constructor(private readonly db: Database) {}
  database(): Promise<Database> {
    return Promise.resolve(this.db)
  }
  workerOn(): Promise<null> {
    return Promise.resolve(null)
  }
  attachWorker(): Promise<AttachedWorker | null> {
    return Promise.resolve(null)
  }
  webApp(): Promise<{ base: string; signInUrl: string }> {
    return Promise.reject(new Error('no web app in this bench'))
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Row {
  engine: BenchEngine
  chunks: number
  importSeconds: number
  during: number[]
  idle: number[]
}

async function measure(engine: BenchEngine, corpus: string, home: string): Promise<Row> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const host = new OneBrainHost(db)
    const env = { BRAIN_HOME: home }
    // Each search of a run a query and limit not asked before in it, so no kept result list answers it.
    const search = async (i: number): Promise<number> => {
      const started = performance.now()
      await callOperation({ operation: 'search', args: { query: QUERIES[i % QUERIES.length]!, limit: 1 + (i % 50) }, cwd: home, env }, { host })
      return performance.now() - started
    }
    // The operation's modules load once, before anything is timed.
    await search(0)
    let done = false
    const started = performance.now()
    const importing = importFolder(db, corpus, { strategy: 'markdown', sourceId: 'default', embedder: null }).finally(() => (done = true))
    const during: number[] = []
    for (let i = 0; !done; i++) {
      during.push(await search(i + 1))
      await sleep(PAUSE_MS)
    }
    const result = await importing
    const importSeconds = (performance.now() - started) / 1000
    const idle: number[] = []
    for (let i = 0; i < during.length; i++) idle.push(await search(i + 1))
    return { engine, chunks: result.chunks, importSeconds, during, idle }
  } finally {
    await close()
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2)
  const notesAt = argv.indexOf('--notes')
  const notes = notesAt === -1 ? 5000 : Number(argv[notesAt + 1])
  const corpus = mkdtempSync(join(tmpdir(), 'brain-bench-during-'))
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-during-home-'))
  try {
    writeMarkdownCorpus(corpus, notes)
    const rows: Row[] = []
    for (const engine of enginesFromArgs(argv)) rows.push(await measure(engine, corpus, home))
    console.log(`${notes.toLocaleString('en')} generated notes; a search every ${PAUSE_MS} ms after the one before`)
    console.log('| engine | chunks | import s | searches during | during p50 / p95 / max ms | idle p50 / p95 ms |')
    console.log('|---|---|---|---|---|---|')
    for (const r of rows) {
      const f = (v: number): string => v.toFixed(1)
      console.log(
        `| ${r.engine} | ${r.chunks} | ${r.importSeconds.toFixed(1)} | ${r.during.length} | ${f(percentile(r.during, 0.5))} / ${f(percentile(r.during, 0.95))} / ${f(Math.max(...r.during))} | ${f(percentile(r.idle, 0.5))} / ${f(percentile(r.idle, 0.95))} |`,
      )
    }
  } finally {
    rmSync(corpus, { recursive: true, force: true })
    rmSync(home, { recursive: true, force: true })
    stopBenchCluster()
  }
}

await main()
