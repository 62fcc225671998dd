/**
 * bench/backup: the time and size of `brain backup` and `brain restore` for a 10,000-page brain
 * on each engine, run in-process through the functions the commands call. Pages are generated
 * notes of about 1.5 KB with no embeddings (embeddings would dominate the size and are copied
 * the same way as every other column).
 *
 *   node dist/bench/backup/run.js [pglite] [postgres] [--pages N]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { loadConfig, type Config } from '../../src/config/index.js'
import { createBackup, type BackupPlace } from '../../src/backup/index.js'
import { openDatabase } from '../../src/db/open.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import { restoreBackup } from '../../src/backup/restore.js'
import { importFolder } from '../../src/intake/import/index.js'
import { startPgCluster, type PgCluster } from '../../test/helpers/pg-cluster.js'
import { enginesFromArgs, type BenchEngine } from '../lib/engines.js'

const WORDS = 'heron marsh probe launch budget tide lantern copper river falcon meadow quartz ledger orbit harbour signal'.split(' ')
const at = (flag: string, fallback: number): number => (process.argv.includes(flag) ? Number(process.argv[process.argv.indexOf(flag) + 1]) : fallback)
const PAGES = at('--pages', 10_000)

let cluster: PgCluster | undefined
const homes: string[] = []

/** A brain's configuration: an embedded home, or a new empty database on the cluster. */
async function brainConfig(engine: BenchEngine): Promise<Config> {
  const home = mkdtempSync(join(tmpdir(), 'brain-bench-backup-'))
  homes.push(home)
  if (engine === 'pglite') return loadConfig({ env: { BRAIN_HOME: home } })
  cluster ??= await startPgCluster()
  const name = `brain_backup_${process.pid}_${Date.now()}`
  const admin = await openPostgres({ url: cluster.adminUrl, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  await admin.exec(`CREATE DATABASE ${name}`)
  await admin.close()
  return loadConfig({ env: { BRAIN_HOME: home, BRAIN_DATABASE_URL: cluster.adminUrl.replace(/\/[^/]*$/, `/${name}`), PATH: process.env.PATH ?? '' } })
}

function place(config: Config): BackupPlace {
  return { home: config.home, engine: config.engine, brainVersion: 'bench', env: process.env }
}

function writeNotes(dir: string, count: number): void {
  let seed = 7
  const next = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `f${Math.floor(i / 500)}`)
    if (i % 500 === 0) mkdirSync(folder, { recursive: true })
    const body = Array.from({ length: 220 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')
    writeFileSync(join(folder, `note-${i}.md`), `# Note ${i}\n\n${body}\n`)
  }
}

async function measure(engine: BenchEngine, notes: string): Promise<string> {
  const source = await brainConfig(engine)
  const db = await openDatabase(source.engine)
  try {
    await importFolder(db, notes, { strategy: 'markdown', sourceId: 'default', embedder: null })
    const backupStart = performance.now()
    const made = await createBackup(db, place(source))
    const backupMs = performance.now() - backupStart
    const into = await brainConfig(engine)
    if (engine === 'postgres') await (await openDatabase(into.engine)).close()
    const restoreStart = performance.now()
    const restored = await restoreBackup(made.path, place(into), { force: false })
    const restoreMs = performance.now() - restoreStart
    const mib = (statSync(made.path).size / 1024 / 1024).toFixed(1)
    return `${engine.padEnd(8)} ${String(made.pages).padStart(6)} pages  backup ${(backupMs / 1000).toFixed(1).padStart(5)} s  ${mib.padStart(6)} MiB  restore ${(restoreMs / 1000).toFixed(1).padStart(5)} s  (${restored.pages} pages back)`
  } finally {
    await db.close()
  }
}

async function main(): Promise<void> {
  const notes = mkdtempSync(join(tmpdir(), 'brain-bench-notes-'))
  try {
    writeNotes(notes, PAGES)
    for (const engine of enginesFromArgs(process.argv.slice(2))) console.log(await measure(engine, notes))
  } finally {
    rmSync(notes, { recursive: true, force: true })
    for (const home of homes) rmSync(home, { recursive: true, force: true })
    cluster?.stop()
  }
}

await main()
