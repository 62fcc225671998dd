/**
 * bench/sync: a full sync of a generated 5,000-file git repository (4,500 markdown notes and 500
 * TypeScript files, strategy auto), then incremental syncs after changing one file, all without
 * embeddings. The syncs run in-process through runSync (git diff, blob reads, import, bookmark);
 * on PGLite the incremental sync is also timed end to end through `brain sync` (process start,
 * opening the brain, the sync job).
 *
 *   node dist/bench/sync/run.js [pglite] [postgres]
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import { openDatabase } from '../../src/db/open.js'
import type { Database } from '../../src/db/types.js'
import { insertSource } from '../../src/intake/sources/source-repository.js'
import { runSync, type SourceSyncResult } from '../../src/intake/sync/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { writeMarkdownCorpus } from '../import/corpus.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'

const NOTES = 4500
const CODE_FILES = 500
const INCREMENTAL_RUNS = 5

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim()
}

function codeFile(i: number): string {
  return `/** Module ${i}: helpers for step ${i}. */\nexport interface Step${i} {\n  id: number\n  label: string\n}\n\nexport function run${i}(input: Step${i}): string {\n  return \`\${input.label}-\${input.id * ${i % 13}}\`\n}\n\nexport class Runner${i} {\n  constructor(private readonly steps: Step${i}[]) {}\n\n  all(): string[] {\n    return this.steps.map(run${i})\n  }\n}\n`
}

function makeRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'brain-bench-sync-'))
  writeMarkdownCorpus(dir, NOTES)
  for (let i = 0; i < CODE_FILES; i++) {
    mkdirSync(join(dir, 'src', `mod${i % 25}`), { recursive: true })
    writeFileSync(join(dir, 'src', `mod${i % 25}`, `file${i}.ts`), codeFile(i))
  }
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'config', 'user.name', 'Brain Bench')
  git(dir, 'config', 'user.email', 'bench@example.invalid')
  git(dir, 'config', 'commit.gpgsign', 'false')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '-m', 'corpus')
  return dir
}

function changeOneFile(repo: string, round: number): void {
  writeFileSync(join(repo, 'src', 'mod0', 'file0.ts'), `${codeFile(0)}\nexport const round = ${round}\n`)
  git(repo, 'commit', '-q', '-am', `round ${round}`)
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await fn()
  return { value, ms: performance.now() - started }
}

interface Row {
  engine: BenchEngine
  step: string
  files: string
  ms: number
}

async function measure(engine: BenchEngine, db: Database, repo: string, rows: Row[]): Promise<void> {
  await insertSource(db, { id: 'bench', localPath: repo, strategy: 'auto' })
  const sync = (): Promise<SourceSyncResult> => runSync(db, { sourceId: 'bench' }, { embedder: null, holder: 'bench' }) as Promise<SourceSyncResult>
  const full = await timed(sync)
  rows.push({ engine, step: 'full sync (first)', files: `${full.value.added} added, ${full.value.failed} failed`, ms: full.ms })
  const idle = await timed(sync)
  rows.push({ engine, step: `no change (${idle.value.status})`, files: '0', ms: idle.ms })
  const runs: number[] = []
  for (let round = 1; round <= INCREMENTAL_RUNS; round++) {
    changeOneFile(repo, round)
    const incremental = await timed(sync)
    if (incremental.value.modified !== 1) throw new Error(`expected 1 modified file, got ${JSON.stringify(incremental.value)}`)
    runs.push(incremental.ms)
  }
  runs.sort((a, b) => a - b)
  rows.push({ engine, step: `incremental, 1 file changed (median of ${INCREMENTAL_RUNS})`, files: '1 modified', ms: runs[Math.floor(runs.length / 2)]! })
  rows.push({ engine, step: `incremental, 1 file changed (slowest of ${INCREMENTAL_RUNS})`, files: '1 modified', ms: runs[runs.length - 1]! })
}

/** The same incremental sync as a user runs it: `brain sync --source bench --no-embed`. */
function measureCli(home: string, repo: string, rows: Row[]): void {
  changeOneFile(repo, 100)
  const started = performance.now()
  const out = spawnSync(process.execPath, [join(packageRoot(), 'bin', 'brain.js'), 'sync', '--source', 'bench', '--no-embed', '--json'], {
    env: { PATH: process.env.PATH ?? '', BRAIN_HOME: home, BRAIN_EMBEDDING_PROVIDER: 'local' },
    encoding: 'utf8',
  })
  const ms = performance.now() - started
  if (out.status !== 0) throw new Error(`brain sync failed: ${out.stdout}${out.stderr}`)
  const result = JSON.parse(out.stdout) as { modified: number; duration_ms: number }
  rows.push({ engine: 'pglite', step: 'incremental via the CLI, wall clock (process start + open + job)', files: `${result.modified} modified`, ms })
  rows.push({ engine: 'pglite', step: 'incremental via the CLI, inside the sync job', files: `${result.modified} modified`, ms: result.duration_ms })
}

async function main(): Promise<void> {
  const rows: Row[] = []
  try {
    for (const engine of enginesFromArgs(process.argv.slice(2))) {
      const repo = makeRepository()
      try {
        if (engine === 'pglite') {
          const home = mkdtempSync(join(tmpdir(), 'brain-bench-home-'))
          const db = await openDatabase(loadConfig({ env: { BRAIN_HOME: home } }).engine)
          await measure(engine, db, repo, rows).finally(() => db.close())
          measureCli(home, repo, rows)
          rmSync(home, { recursive: true, force: true })
        } else {
          const { db, close } = await openBenchDatabase(engine)
          await measure(engine, db, repo, rows).finally(close)
        }
      } finally {
        rmSync(repo, { recursive: true, force: true })
      }
    }
  } finally {
    stopBenchCluster()
  }
  console.log('| engine | step | files | time |')
  console.log('|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.engine} | ${r.step} | ${r.files} | ${r.ms >= 1000 ? `${(r.ms / 1000).toFixed(2)} s` : `${r.ms.toFixed(0)} ms`} |`)
}

await main()
