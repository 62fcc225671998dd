import { Worker } from 'node:worker_threads'

/** Marks one database call as under way; the returned function marks it done. */
interface CallWatch {
  begin(): () => void
  stop(): Promise<void>
}

interface CallWatchdogOptions {
  /** A call under way longer than this ends the process. */
  limitMs: number
  /** What the report names (the data directory). */
  location: string
  /** A folder on the data directory's filesystem: a call stalled while it is full ends sooner. */
  diskDir?: string
}

/**
 * PGLite runs inside this thread's WebAssembly: a statement that never returns (a loop inside
 * the engine, a file system that never answers) holds the event loop, so no timer of ours can
 * run and nothing can be cancelled. A second thread watches the start time of the oldest call
 * under way, shared through memory; past the limit it writes a report to stderr (the service's
 * log) and kills the process, which is all that can still be done. The next command then starts
 * a fresh process, and PostgreSQL's recovery replays what was committed.
 */
export function startCallWatchdog(options: CallWatchdogOptions): CallWatch {
  const shared = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT)
  const oldestStart = new Float64Array(shared)
  const thread = new Worker(new URL('./call-watchdog-thread.js', import.meta.url), {
    workerData: { shared, limitMs: options.limitMs, location: options.location, pid: process.pid, diskDir: options.diskDir ?? null },
    stdout: false,
    stderr: false,
  })
  // The watchdog never keeps a finished process alive.
  thread.unref()
  const started = new Map<number, number>()
  let nextId = 0
  const publishOldest = (): void => {
    const first = started.values().next()
    oldestStart[0] = first.done ? 0 : first.value
  }
  return {
    begin() {
      const id = nextId++
      started.set(id, Date.now())
      if (started.size === 1) publishOldest()
      return () => {
        started.delete(id)
        publishOldest()
      }
    },
    async stop() {
      await thread.terminate()
    },
  }
}
