/**
 * bench/import: files/s and chunks/s for markdown and code imports, without embeddings, on both
 * engines. Corpus 1: 2,000 generated markdown notes. Corpus 2: this project's own source tree
 * (src/, workers/, supervisor/, test/, bench/, migrations/) imported as code. Corpus 3: a generated
 * mixed-language tree (twelve languages, 50 files each).
 *
 *   node dist/bench/import/run.js [pglite] [postgres]
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
}

async function measure(engine: BenchEngine, corpus: string, root: string, strategy: 'markdown' | 'code'): Promise<Row> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const started = performance.now()
    const result = await importFolder(db, root, { strategy, sourceId: 'default', embedder: null })
    const seconds = (performance.now() - started) / 1000
    return { engine, corpus, files: result.created + result.updated, chunks: result.chunks, seconds, failed: result.failed.length }
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
  const engines = enginesFromArgs(process.argv.slice(2))
  const notes = mkdtempSync(join(tmpdir(), 'brain-bench-md-'))
  writeMarkdownCorpus(notes, 2000)
  const code = sourceTreeCopy()
  const mixed = mkdtempSync(join(tmpdir(), 'brain-bench-mixed-'))
  writeCodeCorpus(mixed, 50)
  const rows: Row[] = []
  try {
    for (const engine of engines) {
      rows.push(await measure(engine, 'markdown: 2,000 generated notes', notes, 'markdown'))
      rows.push(await measure(engine, "code: this project's source tree", code, 'code'))
      rows.push(await measure(engine, 'code: generated tree, 12 languages', mixed, 'code'))
    }
  } finally {
    rmSync(notes, { recursive: true, force: true })
    rmSync(code, { recursive: true, force: true })
    rmSync(mixed, { recursive: true, force: true })
    stopBenchCluster()
  }
  console.log('| engine | corpus | files | chunks | seconds | files/s | chunks/s | failed |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    console.log(`| ${r.engine} | ${r.corpus} | ${r.files} | ${r.chunks} | ${r.seconds.toFixed(2)} | ${(r.files / r.seconds).toFixed(0)} | ${(r.chunks / r.seconds).toFixed(0)} | ${r.failed} |`)
  }
}

await main()
