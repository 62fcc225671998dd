import { availableParallelism } from 'node:os'
import { keepingProcessAlive } from './keep-alive.js'
import { fastBackend, stockBackend, type LocalBackend } from './local-backends.js'
import { nativeBackend, type NativeBackend } from './native-backend.js'
import { EmbedWorkerPool } from './worker-pool.js'

export interface LocalRuntimeOptions {
  /**
   * 'native' runs the model on onnxruntime-node (falling back to 'fast' if it cannot start);
   * 'fast' on TF.js wasm worker threads; 'stock' in-process as @energetic-ai/embeddings does.
   */
  mode: 'native' | 'fast' | 'stock'
  /** Native path: threads inside one model call. */
  nativeThreads: number
  /** Native path: bulk model calls in flight at once. */
  nativeConcurrency: number
  /** Native path: the runtime module (tests name one that cannot load). */
  nativeRuntimeModule?: string
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
function defaultMaxWorkers(): number {
  return Math.max(1, Math.min(2, availableParallelism()))
}

const defaults = (): LocalRuntimeOptions => ({
  mode: 'native',
  ...defaultNativeThreading(),
  maxWorkers: defaultMaxWorkers(),
  onWarning: (message) => process.emitWarning(message, { code: 'BRAIN_EMBEDDING_FALLBACK' }),
})

/**
 * One model call at a time with a thread per core (up to two): the runtime runs one session's
 * calls one after another, so two calls of one thread each left a core idle, while two threads
 * in one call ran at 186 chunks/s against 96 on an idle two-core machine (bench/embed). Idle
 * threads sleep instead of spinning (native-runner.ts), so a search beside an import keeps its
 * core; a query may take one slot more than bulk work and so does not wait for the queue.
 */
function defaultNativeThreading(): Pick<LocalRuntimeOptions, 'nativeThreads' | 'nativeConcurrency'> {
  return { nativeThreads: defaultMaxWorkers(), nativeConcurrency: 1 }
}

interface ActiveRuntime {
  backend: Promise<LocalBackend>
  pool?: EmbedWorkerPool
  native?: Promise<NativeBackend | undefined>
}

let options: LocalRuntimeOptions = defaults()
let active: ActiveRuntime | undefined

/**
 * Sets how the process-wide local runtime starts; takes effect at the next start (after
 * disposeLocalEmbeddings() if one is running). Unset fields keep their defaults.
 */
export function configureLocalEmbeddings(overrides: Partial<LocalRuntimeOptions>): void {
  options = { ...defaults(), ...overrides }
}

/** True when the process-wide runtime tries the native backend first. */
export function nativeRequested(): boolean {
  return options.mode === 'native'
}

/**
 * The process-wide local backend, started on first use and kept (a resident process pays the
 * model load once): onnxruntime-node in-process, else worker threads on the wasm backend, else
 * the in-process stock path. Each step down is decided once per process, with a warning instead
 * of a failure.
 */
export function localBackend(): Promise<LocalBackend> {
  if (active !== undefined) return active.backend
  const settings = options
  const runtime: ActiveRuntime = { backend: Promise.resolve(stockBackend) }
  active = runtime
  if (settings.mode === 'fast') runtime.backend = startWorkers(settings, runtime)
  if (settings.mode === 'native') {
    runtime.native = startNative(settings).catch((err: unknown) => {
      settings.onWarning(`The native local embedder could not start (${err instanceof Error ? err.message : String(err)}); embedding on the slower wasm path.`)
      return undefined
    })
    runtime.backend = runtime.native.then((started) => started ?? startWorkers(settings, runtime))
  }
  return runtime.backend
}

async function startNative(settings: LocalRuntimeOptions): Promise<NativeBackend> {
  const { startNativeThread } = await import('./native-thread.js')
  const model = await startNativeThread({ intraOpThreads: settings.nativeThreads, ...(settings.nativeRuntimeModule !== undefined ? { runtimeModule: settings.nativeRuntimeModule } : {}) })
  return nativeBackend(model, { concurrency: settings.nativeConcurrency })
}

function startWorkers(settings: LocalRuntimeOptions, runtime: ActiveRuntime): Promise<LocalBackend> {
  const pool = new EmbedWorkerPool({ maxWorkers: settings.maxWorkers, workerUrl: settings.workerUrl })
  const warn = settings.onWarning
  runtime.pool = pool
  return pool.start().then(
    () => fastBackend(pool),
    async (err: unknown) => {
      await pool.dispose()
      warn(`The fast local embedder could not start (${err instanceof Error ? err.message : String(err)}); embedding in-process on the slower stock path.`)
      return stockBackend
    },
  )
}

/** Terminates the embedding worker threads and releases the native session; the next embed starts again. */
export async function disposeLocalEmbeddings(): Promise<void> {
  const current = active
  active = undefined
  await keepingProcessAlive(async () => {
    // Awaiting the native start first: when it failed, its fallback has created the pool by then.
    const native = await current?.native
    await native?.release()
    if (current?.pool !== undefined) await current.pool.dispose()
  })
}
