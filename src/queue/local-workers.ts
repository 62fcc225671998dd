import type { Database } from '../db/index.js'

const serving = new WeakMap<Database, Map<string, ReadonlySet<string>>>()

/**
 * Workers running in this process, per database handle. On an engine only one process can
 * open, a command waiting for its job leaves the job to such a worker instead of running it
 * itself (the resident service runs one).
 */
export function registerLocalWorker(db: Database, workerId: string, names: readonly string[]): () => void {
  let workers = serving.get(db)
  if (!workers) {
    workers = new Map()
    serving.set(db, workers)
  }
  workers.set(workerId, new Set(names))
  return () => void serving.get(db)?.delete(workerId)
}

export function localWorkerServes(db: Database, name: string): boolean {
  for (const names of serving.get(db)?.values() ?? []) if (names.has(name)) return true
  return false
}
