import { availableParallelism } from 'node:os'
import { fastBackend, stockBackend, type LocalBackend } from './local-backends.js'
import { EmbedWorkerPool } from './worker-pool.js'

export interface LocalRuntimeOptions {
  /** 'stock' skips the worker threads and runs the model in-process as @energetic-ai/embeddings does. */
  mode: 'fast' | 'stock'
  /** Most embedding worker threads. */
  maxWorkers: number
  /** Worker script (tests use one that fails to start). */
  workerUrl?: URL
  /** Receives the fallback warning; default: a process warning on stderr. */
  onWarning: (message: string) => void
}

/**
 * At most two workers, each holding a model copy (about 100 MB). A concurrent search does not
 * queue behind them: queries embed in-process, and the OS shares the cores.
 */
export function defaultMaxWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()))
}

const defaults = (): LocalRuntimeOptions => ({
  mode: 'fast',
  maxWorkers: defaultMaxWorkers(),
  onWarning: (message) => process.emitWarning(message, { code: 'BRAIN_EMBEDDING_FALLBACK' }),
})

let options: LocalRuntimeOptions = defaults()
let active: { backend: Promise<LocalBackend>; pool: EmbedWorkerPool | undefined } | undefined

/**
 * Sets how the process-wide local runtime starts; takes effect at the next start (after
 * disposeLocalEmbeddings() if one is running). Unset fields keep their defaults.
 */
export function configureLocalEmbeddings(overrides: Partial<LocalRuntimeOptions>): void {
  options = { ...defaults(), ...overrides }
}

/**
 * The process-wide local backend: worker threads on the wasm backend, started on first use and
 * kept (a resident process pays the model load once). If they cannot start, the in-process
 * stock path takes over for the rest of the process, with a warning instead of a failure.
 */
export function localBackend(): Promise<LocalBackend> {
  if (active !== undefined) return active.backend
  if (options.mode === 'stock') {
    active = { backend: Promise.resolve(stockBackend), pool: undefined }
    return active.backend
  }
  const pool = new EmbedWorkerPool({ maxWorkers: options.maxWorkers, workerUrl: options.workerUrl })
  const warn = options.onWarning
  const backend = pool.start().then(
    () => fastBackend(pool),
    async (err: unknown) => {
      await pool.dispose()
      warn(`The fast local embedder could not start (${err instanceof Error ? err.message : String(err)}); embedding in-process on the slower stock path.`)
      return stockBackend
    },
  )
  active = { backend, pool }
  return backend
}

/** Terminates the embedding worker threads; the next embed starts them again. */
export async function disposeLocalEmbeddings(): Promise<void> {
  const current = active
  active = undefined
  if (current?.pool !== undefined) await current.pool.dispose()
}
