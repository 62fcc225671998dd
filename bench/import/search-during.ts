/**
 * bench/import/search-during: how long a search takes while a bulk import writes to the same brain,
 * as in the resident service, where a relayed `brain search` and `brain import` share one open
 * database. The import is `importFolder` over the generated notes of bench/import; meanwhile a
 * search (the `search` operation through `callOperation`, as the service runs it) is due 20 ms
 * after the one before ends and is timed from when it was due, cycling through
 * bench/scale's queries and through limits 1 to 50, until the import is done. The same searches
 * on the finished brain, one after another, give the idle figures beside them.
 *
 * With `--mbox N` the folder holds one mailbox of N messages (bench/documents' generator) instead,
 * which the import reads and writes a part at a time. `--pause MS` spaces the searches further
 * apart: a person's searches now and then, rather than an agent's in a row, which the import meets
 * while it has had the engine to itself.
 *
 *   node dist/bench/import/search-during.js [pglite] [postgres] [--notes N | --mbox N] [--pause MS]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callOperation } from '../../src/cli/call-operation.js'
import type { Database } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import type { AttachedWorker, BrainHost } from '../../src/service/index.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { writeMbox } from '../documents/corpus.js'
import { writeMarkdownCorpus } from './corpus.js'

const QUERIES = ['garden tomatoes', 'dovetail joint', 'typescript generics', 'exposure triangle', 'sourdough starter', 'monthly plan', 'climbing grades', 'schedule review']
const DEFAULT_PAUSE_MS = 20

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

async function measure(engine: BenchEngine, corpus: string, home: string, pauseMs: number): Promise<Row> {
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
    const importing = importFolder(db, corpus, { strategy: 'auto', sourceId: 'default', embedder: null }).finally(() => (done = true))
    // Each search is due pauseMs after the one before ends, and is timed from when it was due, not
    // from when the event loop got round to it: work that holds the thread (parsing a batch) delays
    // a search the service receives just as much.
    const during: number[] = []
    for (let i = 0; !done; i++) {
      const due = performance.now() + pauseMs
      await sleep(pauseMs)
      if (done) break
      await search(i + 1)
      during.push(performance.now() - due)
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
  const valueOf = (flag: string): number | null => (argv.includes(flag) ? Number(argv[argv.indexOf(flag) + 1]) : null)
  const messages = valueOf('--mbox')
  const notes = valueOf('--notes') ?? 5000
  const pauseMs = valueOf('--pause') ?? DEFAULT_PAUSE_MS
  const corpus = mkdtempSync(join(tmpdir(), 'brain-bench-during-'))
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-during-home-'))
  try {
    if (messages === null) writeMarkdownCorpus(corpus, notes)
    else writeMbox(corpus, messages)
    const rows: Row[] = []
    for (const engine of enginesFromArgs(argv)) rows.push(await measure(engine, corpus, home, pauseMs))
    const what = messages === null ? `${notes.toLocaleString('en')} generated notes` : `a mailbox of ${messages.toLocaleString('en')} messages`
    console.log(`${what}; a search every ${pauseMs} ms after the one before, timed from when it was due`)
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
