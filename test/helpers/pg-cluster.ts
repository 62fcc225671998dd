/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp folder, started on a free
 * loopback port, removed on stop. Runs the server as the `postgres` user when we are root,
 * because PostgreSQL refuses to run as root.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const PG_BIN = process.env.BRAIN_PG_BIN ?? '/usr/lib/postgresql/15/bin'

export interface PgCluster {
  dir: string
  port: number
  /** URL of the `postgres` maintenance database, superuser, trust auth. */
  adminUrl: string
  stop(): void
  /** Stops the server but keeps its data, to simulate an outage. */
  pause(): void
  resume(): void
  /** Restarts the server as an operator does (fast mode: sessions ended, committed work kept). */
  restart(): void
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function runAsPostgres(cmd: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0
  const result = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { encoding: 'utf8' }) : spawnSync(cmd, args, { encoding: 'utf8' })
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed: ${result.stderr || result.stdout}`)
  }
}

function stopArgs(data: string): string[] {
  return ['-D', data, '-m', 'immediate', '-w', 'stop']
}

/** Stops a cluster started by another process (scripts/test.sh) and removes its folder. */
export function stopPgClusterDir(dir: string): void {
  try {
    runAsPostgres(join(PG_BIN, 'pg_ctl'), stopArgs(join(dir, 'data')))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface PgClusterOptions {
  /** The folder to make the cluster's folder in (a small filesystem, say); the system's temp folder by default. */
  parent?: string
  /** WAL segment size in MiB (initdb's --wal-segsize); PostgreSQL's 16 by default. */
  walSegmentMiB?: number
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  if (!existsSync(join(PG_BIN, 'initdb'))) {
    throw new Error(`PostgreSQL binaries not found in ${PG_BIN}: run \`npm run setup\``)
  }
  const dir = mkdtempSync(join(options.parent ?? tmpdir(), 'brain-pg-'))
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const data = join(dir, 'data')
  const walSegment = options.walSegmentMiB === undefined ? [] : [`--wal-segsize=${options.walSegmentMiB}`]
  runAsPostgres(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', ...walSegment])
  const port = await freePort()
  const walSizes = options.walSegmentMiB === undefined ? '' : ` -c min_wal_size=${4 * options.walSegmentMiB}MB -c max_wal_size=${8 * options.walSegmentMiB}MB`
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300${walSizes}`
  const start = (): void => runAsPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-o', serverOptions, '-l', join(dir, 'log'), '-w', 'start'])
  const stopServer = (): void => runAsPostgres(join(PG_BIN, 'pg_ctl'), stopArgs(data))
  start()
  let running = true
  return {
    dir,
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      if (running) stopServer()
      running = false
    },
    resume() {
      if (!running) start()
      running = true
    },
    restart() {
      if (running) runAsPostgres(join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'])
      start()
      running = true
    },
    stop() {
      try {
        if (running) stopServer()
      } finally {
        running = false
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** The postmaster's pid, from the first line of its pid file; null once the server is gone. */
export function postmasterPid(cluster: PgCluster): number | null {
  try {
    return Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  } catch {
    return null
  }
}
