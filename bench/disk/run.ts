/**
 * bench/disk: what the embedded engine's protections cost per write: the free-space check (one
 * statfs at most every 250 ms, a comparison otherwise) and the call watchdog (two map updates and
 * a shared-memory store per call). The same page write runs with neither, each, and both, on one
 * PGLite data directory, rounds interleaved so drift hits every arm alike.
 *
 *   node dist/bench/disk/run.js [--writes N] [--rounds N]
 */
import { mkdtempSync, rmSync, statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openPglite } from '../../src/db/pglite-driver.js'
import type { Database } from '../../src/db/types.js'

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(name)
  return at >= 0 ? Number(process.argv[at + 1]) : fallback
}

const WRITES = argValue('--writes', 2000)
const ROUNDS = argValue('--rounds', 5)
const MiB = 1024 * 1024

interface Arm {
  name: string
  guard: boolean
  watchdog: boolean
}

const ARMS: Arm[] = [
  { name: 'neither', guard: false, watchdog: false },
  { name: 'free-space check', guard: true, watchdog: false },
  { name: 'call watchdog', guard: false, watchdog: true },
  { name: 'both (the default)', guard: true, watchdog: true },
]

async function open(dir: string, arm: Arm): Promise<Database> {
  return openPglite({
    dataDir: join(dir, 'db'),
    ...(arm.guard ? { freeSpace: { dir, reserveBytes: 32 * MiB } } : {}),
    ...(arm.watchdog ? { callLimitMs: 300_000 } : {}),
  })
}

/** Microseconds per single-row insert, each its own statement (the unbatched worst case). */
async function timeWrites(db: Database, round: number): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < WRITES; i++) await db.query('INSERT INTO notes (round, body) VALUES ($1, $2)', [round, `note ${i}`])
  return ((performance.now() - start) * 1000) / WRITES
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'brain-bench-disk-'))
  try {
    const setup = await open(dir, ARMS[0]!)
    await setup.exec('CREATE TABLE notes (id serial PRIMARY KEY, round int, body text)')
    await setup.close()
    const results = new Map<string, number[]>(ARMS.map((a) => [a.name, []]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const arm of ARMS) {
        const db = await open(dir, arm)
        results.get(arm.name)!.push(await timeWrites(db, round))
        await db.close()
      }
    }
    const statfsStart = performance.now()
    for (let i = 0; i < 10_000; i++) statfsSync(dir)
    const statfsUs = ((performance.now() - statfsStart) * 1000) / 10_000
    const base = median(results.get('neither')!)
    console.log(`${WRITES} single-row inserts x ${ROUNDS} rounds, median µs per write:`)
    for (const arm of ARMS) {
      const m = median(results.get(arm.name)!)
      console.log(`  ${arm.name.padEnd(20)} ${m.toFixed(1).padStart(7)} µs  (${m - base >= 0 ? '+' : ''}${(m - base).toFixed(1)} µs)`)
    }
    console.log(`  one statfs call       ${statfsUs.toFixed(2).padStart(7)} µs (made at most every 250 ms)`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
