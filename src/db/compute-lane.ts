import { Worker } from 'node:worker_threads'
import type { Database, QueryResult, SqlParam } from './types.js'

/**
 * Statements that read no table of the brain, only its functions (text analysis), run beside the
 * brain's own writes: on the server, another connection of the pool; on the embedded engine, whose
 * one thread runs every statement in turn, a second in-memory engine of the same build in a worker
 * thread, started from the brain's pre-migrated snapshot, so it holds the same functions.
 */
export interface ComputeLane {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly SqlParam[]): Promise<QueryResult<R>>
  close(): Promise<void>
}

interface Reply {
  id: number
  rows?: Record<string, unknown>[]
  error?: string
}

/**
 * A lane for `db`, or null where there is none: an embedded engine without a current snapshot
 * (starting one from nothing takes longer than most imports), or a thread that did not start.
 */
export async function openComputeLane(db: Database): Promise<ComputeLane | null> {
  if (db.capabilities.parallelStatements) return { query: (text, params) => db.query(text, params), close: async () => undefined }
  return startThread().catch(() => null)
}

async function startThread(): Promise<ComputeLane> {
  const { compiledPgliteModule } = await import('./pglite-driver.js')
  // The engine's compiled code is shared with the thread, not compiled a second time.
  const module = await compiledPgliteModule()
  const thread = new Worker(new URL('./compute-thread.js', import.meta.url), { workerData: { module: module ?? null }, stdout: false, stderr: false })
  // Work handed to the lane never keeps a finished process alive.
  thread.unref()
  const waiting = new Map<number, { resolve: (rows: Record<string, unknown>[]) => void; reject: (err: Error) => void }>()
  let failed: Error | null = null
  const failAll = (err: Error): void => {
    failed ??= err
    for (const w of waiting.values()) w.reject(failed)
    waiting.clear()
  }
  thread.on('error', failAll)
  thread.on('exit', () => failAll(new Error('The compute thread stopped.')))
  await new Promise<void>((resolve, reject) => {
    thread.once('message', (m: { ready?: boolean; error?: string }) => (m.ready ? resolve() : reject(new Error(m.error ?? 'The compute thread did not start.'))))
    thread.once('error', reject)
  })
  thread.on('message', (reply: Reply) => {
    const w = waiting.get(reply.id)
    if (w === undefined) return
    waiting.delete(reply.id)
    if (reply.error !== undefined) w.reject(new Error(reply.error))
    else w.resolve(reply.rows ?? [])
  })
  let nextId = 0
  return {
    query<R extends object>(text: string, params: readonly SqlParam[] = []): Promise<QueryResult<R>> {
      if (failed) return Promise.reject(failed)
      const id = nextId++
      return new Promise<QueryResult<R>>((resolve, reject) => {
        waiting.set(id, { resolve: (rows) => resolve({ rows: rows as R[], rowCount: rows.length }), reject })
        thread.postMessage({ id, text, params })
      })
    },
    async close() {
      thread.removeAllListeners('exit')
      failAll(new Error('The compute lane is closed.'))
      await thread.terminate()
    },
  }
}
