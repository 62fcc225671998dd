/**
 * The watching thread of call-watchdog.ts. It must work while the main thread is stuck, so it
 * writes its report with a synchronous write to file descriptor 2 (the service's log, or the
 * terminal) and ends the process with SIGKILL: a signal handler of the main thread would never run.
 */
import { writeSync } from 'node:fs'
import { workerData } from 'node:worker_threads'

interface WatchdogData {
  shared: SharedArrayBuffer
  limitMs: number
  location: string
  pid: number
}

const data = workerData as WatchdogData
const oldestStart = new Float64Array(data.shared)
const everyMs = Math.max(50, Math.min(1000, Math.floor(data.limitMs / 4)))

setInterval(() => {
  const since = oldestStart[0] ?? 0
  if (since === 0 || Date.now() - since <= data.limitMs) return
  const seconds = Math.round((Date.now() - since) / 1000)
  const report = `${new Date().toISOString()} brain: error: a call to the embedded brain at ${data.location} has not returned for ${seconds} s (limit ${Math.round(data.limitMs / 1000)} s, BRAIN_STATEMENT_TIMEOUT); stopping this process so the next command starts a fresh one. Committed writes are kept.\n`
  try {
    writeSync(2, report)
  } finally {
    process.kill(data.pid, 'SIGKILL')
  }
}, everyMs)
