/**
 * bench/import: files/s and chunks/s for markdown and code imports, without embeddings, on both
 * engines. Corpus 1: 2,000 generated markdown notes. Corpus 2: this project's own source tree
 * (src/, workers/, supervisor/, test/, bench/, migrations/) imported as code. Corpus 3: a generated
 * mixed-language tree (twelve languages, 50 files each).
 *
 *   node dist/bench/import/run.js [pglite] [postgres] [--corpus markdown|source|mixed]… [--notes N] [--per-language N] [--dir PATH]…
 *
 * `--corpus` picks corpora (default all three), `--notes` the markdown notes (default 2,000) and
 * `--per-language` the generated files per language (default 50; 334 makes a 4,008-file tree).
 * `--dir` imports a folder on disk as code (a real repository, read in place, never written to);
 * given alone it replaces the default corpora.
 * Each row also gives the process's peak resident memory so far, and the CPU time of the main
 * thread and of the whole process (worker threads included; the server's own CPU is not counted).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { resourceUsage } from 'node:process'
import { join, resolve } from 'node:path'
import { importFolder } from '../../src/intake/import/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { writeCodeCorpus } from './code-corpus.js'
import { writeMarkdownCorpus } from './corpus.js'

interface Row {
  engine: BenchEngine
  corpus: string
  files: number
  chunks: number
  seconds: number
  failed: number
  /** Peak resident memory of this process so far, in MiB. */
  peakMiB: number
  /** CPU seconds of the main thread (the embedded engine's) and of the whole process, threads included. */
  mainCpu: number | null
  processCpu: number
}

/**
 * CPU seconds the main thread has used, from Linux's per-thread accounting (null elsewhere): on
 * a loaded machine the wall time says little, and on the embedded engine the main thread is the
 * import's critical path.
 */
function mainThreadCpu(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

type Corpus = 'markdown' | 'source' | 'mixed'

interface Options {
  engines: BenchEngine[]
  corpora: Corpus[]
  notes: number
  perLanguage: number
  dirs: string[]
}

function parseOptions(argv: string[]): Options {
  const corpora: Corpus[] = []
  let notes = 2000
  let perLanguage = 50
  const dirs: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--corpus') {
      const value = argv[++i]
      if (value !== 'markdown' && value !== 'source' && value !== 'mixed') throw new Error('--corpus takes markdown, source or mixed')
      corpora.push(value)
    } else if (arg === '--notes') notes = Number(argv[++i])
    else if (arg === '--per-language') perLanguage = Number(argv[++i])
    else if (arg === '--dir') {
      const value = argv[++i]
      if (value === undefined || !existsSync(value)) throw new Error('--dir takes the path of a folder')
      dirs.push(value)
    }
  }
  const defaults: Corpus[] = dirs.length > 0 ? [] : ['markdown', 'source', 'mixed']
  return { engines: enginesFromArgs(argv), corpora: corpora.length > 0 ? corpora : defaults, notes, perLanguage, dirs }
}

async function measure(engine: BenchEngine, corpus: string, root: string, strategy: 'markdown' | 'code'): Promise<Row> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const started = performance.now()
    const mainBefore = mainThreadCpu()
    const cpuBefore = process.cpuUsage()
    const result = await importFolder(db, root, { strategy, sourceId: 'default', embedder: null })
    const seconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    const mainAfter = mainThreadCpu()
    const mainCpu = mainBefore === null || mainAfter === null ? null : mainAfter - mainBefore
    const peakMiB = Math.round(resourceUsage().maxRSS / 1024)
    return { engine, corpus, files: result.created + result.updated, chunks: result.chunks, seconds, failed: result.failed.length, peakMiB, mainCpu, processCpu: (cpu.user + cpu.system) / 1e6 }
  } finally {
    await close()
  }
}

function sourceTreeCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'brain-bench-src-'))
  for (const dir of ['src', 'workers', 'supervisor', 'test', 'bench', 'migrations']) {
    const from = join(packageRoot(), dir)
    if (existsSync(from)) cpSync(from, join(root, dir), { recursive: true })
  }
  return root
}

async function main(): Promise<void> {
  const { engines, corpora, notes: noteCount, perLanguage, dirs } = parseOptions(process.argv.slice(2))
  const folders: string[] = []
  const made: Array<{ label: string; root: string; strategy: 'markdown' | 'code' }> = []
  try {
    for (const corpus of corpora) {
      if (corpus === 'markdown') {
        const root = mkdtempSync(join(tmpdir(), 'brain-bench-md-'))
        folders.push(root)
        writeMarkdownCorpus(root, noteCount)
        made.push({ label: `markdown: ${noteCount.toLocaleString('en')} generated notes`, root, strategy: 'markdown' })
      } else if (corpus === 'source') {
        const root = sourceTreeCopy()
        folders.push(root)
        made.push({ label: "code: this project's source tree", root, strategy: 'code' })
      } else {
        const root = mkdtempSync(join(tmpdir(), 'brain-bench-mixed-'))
        folders.push(root)
        writeCodeCorpus(root, perLanguage)
        made.push({ label: 'code: generated tree, 12 languages', root, strategy: 'code' })
      }
    }
    for (const dir of dirs) made.push({ label: `code: ${resolve(dir)}`, root: dir, strategy: 'code' })
    const rows: Row[] = []
    for (const engine of engines) for (const m of made) rows.push(await measure(engine, m.label, m.root, m.strategy))
    console.log('| engine | corpus | files | chunks | seconds | files/s | chunks/s | failed | peak RSS MiB | main-thread CPU s | process CPU s |')
    console.log('|---|---|---|---|---|---|---|---|---|---|---|')
    for (const r of rows) {
      console.log(
        `| ${r.engine} | ${r.corpus} | ${r.files} | ${r.chunks} | ${r.seconds.toFixed(2)} | ${(r.files / r.seconds).toFixed(0)} | ${(r.chunks / r.seconds).toFixed(0)} | ${r.failed} | ${r.peakMiB} | ${r.mainCpu?.toFixed(2) ?? '-'} | ${r.processCpu.toFixed(2)} |`,
      )
    }
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
    stopBenchCluster()
  }
}

await main()
