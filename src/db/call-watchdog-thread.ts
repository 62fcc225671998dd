/**
 * The watching thread of call-watchdog.ts. It must work while the main thread is stuck, so it
 * writes its report with a synchronous write to file descriptor 2 (the service's log, or the
 * terminal) and ends the process with SIGKILL: a signal handler of the main thread would never run.
 */
import { statfsSync, writeSync } from 'node:fs'
import { workerData } from 'node:worker_threads'

interface WatchdogData {
  shared: SharedArrayBuffer
  limitMs: number
  location: string
  pid: number
  /** The filesystem of the data directory, watched for the stall a full disk causes. */
  diskDir: string | null
}

/** PostgreSQL cannot go on without room for one more WAL segment. */
const WAL_SEGMENT_BYTES = 16 * 1024 * 1024
/**
 * A call this old on a disk without room for a WAL segment is taken as stuck: PGLite spins
 * (or never answers) when PostgreSQL cannot create one, and waiting out the whole limit would
 * hold every command of the brain for minutes.
 */
const FULL_DISK_STALL_MS = 15_000

function diskIsFull(dir: string | null): boolean {
  if (dir === null) return false
  try {
    const stats = statfsSync(dir)
    return Number(stats.bavail) * Number(stats.bsize) < WAL_SEGMENT_BYTES
  } catch {
    return false
  }
}

const data = workerData as WatchdogData
const oldestStart = new Float64Array(data.shared)
const everyMs = Math.max(50, Math.min(1000, Math.floor(data.limitMs / 4)))

setInterval(() => {
  const since = oldestStart[0] ?? 0
  if (since === 0) return
  const waited = Date.now() - since
  const stalledOnFullDisk = waited > Math.min(FULL_DISK_STALL_MS, data.limitMs) && diskIsFull(data.diskDir)
  if (!stalledOnFullDisk && waited <= data.limitMs) return
  const seconds = Math.round(waited / 1000)
  const why = stalledOnFullDisk ? 'the disk is full, which the database engine cannot get past' : `limit ${Math.round(data.limitMs / 1000)} s, BRAIN_STATEMENT_TIMEOUT`
  const report = `${new Date().toISOString()} brain: error: a call to the embedded brain at ${data.location} has not returned for ${seconds} s (${why}); stopping this process so the next command starts a fresh one. Committed writes are kept.\n`
  try {
    writeSync(2, report)
  } finally {
    process.kill(data.pid, 'SIGKILL')
  }
}, everyMs)
