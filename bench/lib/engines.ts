/**
 * Benchmark databases: a file-backed embedded brain in a temp folder, and a fresh database on a
 * PostgreSQL cluster (BRAIN_BENCH_PG_URL, else a throwaway cluster started here).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open.js'
import type { Database } from '../../src/db/types.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import { startPgCluster, type PgCluster } from '../../test/helpers/pg-cluster.js'

export type BenchEngine = 'pglite' | 'postgres'

let cluster: PgCluster | undefined

const engineDefaults = { statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false }

async function adminUrl(): Promise<string> {
  if (process.env.BRAIN_BENCH_PG_URL) return process.env.BRAIN_BENCH_PG_URL
  cluster ??= await startPgCluster()
  return cluster.adminUrl
}

export async function openBenchDatabase(engine: BenchEngine): Promise<{ db: Database; close: () => Promise<void> }> {
  if (engine === 'pglite') {
    const home = mkdtempSync(join(tmpdir(), 'brain-bench-'))
    const db = await openDatabase({ kind: 'pglite', dataDir: join(home, 'db'), url: null, ...engineDefaults })
    return {
      db,
      close: async () => {
        await db.close()
        rmSync(home, { recursive: true, force: true })
      },
    }
  }
  const admin = await adminUrl()
  const name = `brain_bench_${process.pid}_${Date.now()}`
  const adminDb = await openPostgres({ url: admin, ...engineDefaults })
  await adminDb.exec(`CREATE DATABASE ${name}`)
  await adminDb.close()
  const url = admin.replace(/\/[^/]*$/, `/${name}`)
  const db = await openDatabase({ kind: 'postgres', dataDir: '', url, ...engineDefaults })
  return {
    db,
    close: async () => {
      await db.close()
      const again = await openPostgres({ url: admin, ...engineDefaults })
      await again.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await again.close()
    },
  }
}

export function stopBenchCluster(): void {
  cluster?.stop()
  cluster = undefined
}

export function enginesFromArgs(argv: string[]): BenchEngine[] {
  const requested = argv.filter((a): a is BenchEngine => a === 'pglite' || a === 'postgres')
  return requested.length > 0 ? requested : ['pglite', 'postgres']
}
