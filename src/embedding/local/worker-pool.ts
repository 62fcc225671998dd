import { Worker } from 'node:worker_threads'
import { LOCAL_MODEL_NATIVE_DIMENSIONS } from './local-model.js'
import type { WorkerReply, WorkerRequest } from './worker-protocol.js'

interface WorkerPoolOptions {
  /** Most worker threads started; each holds its own copy of the model (about 100 MB). */
  maxWorkers: number
  /** Worker script; tests point it at one that fails to start. */
  workerUrl?: URL
  /** How long a worker may take to load the model before it counts as failed. */
  startTimeoutMs?: number
}

interface Task {
  texts: string[]
  /** Small requests (a search query) go ahead of bulk batches. */
  urgent: boolean
  resolve(vectors: Float32Array): void
  reject(err: Error): void
  cancelled: boolean
}

interface Slot {
  worker: Worker
  busy: Task | undefined
}

class WorkerInitError extends Error {}

const DEFAULT_WORKER_URL = new URL('./embed-worker.js', import.meta.url)

/**
 * A bounded pool of embedding worker threads, started on demand: one for the first request, more
 * while work is queued, up to maxWorkers. Idle workers are unref'd so they never keep a CLI
 * process alive; dispose() terminates them.
 */
export class EmbedWorkerPool {
  private readonly slots: Slot[] = []
  private readonly queue: Task[] = []
  private starting: Promise<void> | undefined
  private nextId = 1
  private disposed = false

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Starts the first worker and waits until its model is loaded; rejects with WorkerInitError. */
  async start(): Promise<void> {
    if (this.slots.length === 0) await this.grow()
  }

  get workerCount(): number {
    return this.slots.length
  }

  /** Vectors of USE Lite's native width, flattened in input order. */
  run(texts: string[], urgent = false): { promise: Promise<Float32Array>; cancel(): void } {
    let task!: Task
    const promise = new Promise<Float32Array>((resolve, reject) => {
      task = { texts, urgent, resolve, reject, cancelled: false }
    })
    if (this.disposed) task.reject(new Error('The embedding worker pool was disposed.'))
    else if (urgent) this.queue.unshift(task)
    else this.queue.push(task)
    this.pump()
    return {
      promise,
      cancel: () => {
        task.cancelled = true
        const queued = this.queue.indexOf(task)
        if (queued >= 0) this.queue.splice(queued, 1)
      },
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true
    const pending = this.queue.splice(0)
    for (const task of pending) task.reject(new Error('The embedding worker pool was disposed.'))
    const slots = this.slots.splice(0)
    for (const slot of slots) slot.busy?.reject(new Error('The embedding worker pool was disposed.'))
    await Promise.all(slots.map((slot) => slot.worker.terminate()))
  }

  private pump(): void {
    if (this.disposed) return
    for (const slot of this.slots) {
      if (slot.busy !== undefined) continue
      const task = this.queue.shift()
      if (task === undefined) break
      this.dispatch(slot, task)
    }
    const allBusy = this.slots.every((slot) => slot.busy !== undefined)
    if (this.queue.length > 0 && allBusy && this.slots.length < this.options.maxWorkers && this.starting === undefined) {
      // grow() fails the queue itself when no worker is left; with workers running, a failed
      // extra one is not an error, they keep draining the queue.
      this.grow().catch(() => {})
    }
  }

  private dispatch(slot: Slot, task: Task): void {
    slot.busy = task
    slot.worker.ref()
    const request: WorkerRequest = { id: this.nextId++, texts: task.texts }
    slot.worker.postMessage(request)
  }

  private settle(slot: Slot, reply: WorkerReply): void {
    const task = slot.busy
    if (task === undefined || (reply.type !== 'result' && reply.type !== 'error')) return
    slot.busy = undefined
    slot.worker.unref()
    if (reply.type === 'result') {
      if (reply.vectors.length === task.texts.length * LOCAL_MODEL_NATIVE_DIMENSIONS) task.resolve(reply.vectors)
      else task.reject(new Error(`The embedding worker returned ${reply.vectors.length / LOCAL_MODEL_NATIVE_DIMENSIONS} vectors for ${task.texts.length} inputs.`))
    } else {
      task.reject(new Error(reply.message))
    }
    this.pump()
  }

  private grow(): Promise<void> {
    this.starting ??= this.startWorker().then(
      () => {
        this.starting = undefined
        this.pump()
      },
      (err: unknown) => {
        this.starting = undefined
        if (this.slots.length === 0) {
          for (const task of this.queue.splice(0)) task.reject(err instanceof Error ? err : new Error(String(err)))
        } else {
          this.pump()
        }
        throw err
      },
    )
    return this.starting
  }

  private startWorker(): Promise<void> {
    // Not piped: piped worker stdio holds the process open even after unref(). The worker
    // silences its console itself.
    const worker = new Worker(this.options.workerUrl ?? DEFAULT_WORKER_URL)
    return new Promise<void>((resolve, reject) => {
      const fail = (message: string): void => {
        clearTimeout(timer)
        void worker.terminate()
        reject(new WorkerInitError(message))
      }
      const timer = setTimeout(() => fail('The embedding worker did not load the model in time.'), this.options.startTimeoutMs ?? 60_000)
      timer.unref()
      worker.once('error', (err) => fail(err.message))
      // A worker can also end without an error event (process.exit inside it, a loader hook).
      worker.once('exit', (code) => fail(`The embedding worker exited with code ${code} while loading the model.`))
      worker.once('message', (reply: WorkerReply) => {
        if (reply.type !== 'ready') return fail(reply.type === 'init-failed' ? reply.message : 'The embedding worker sent no ready message.')
        clearTimeout(timer)
        worker.removeAllListeners('error')
        worker.removeAllListeners('exit')
        if (this.disposed) {
          void worker.terminate()
          return reject(new WorkerInitError('The embedding worker pool was disposed.'))
        }
        const slot: Slot = { worker, busy: undefined }
        this.slots.push(slot)
        worker.on('message', (message: WorkerReply) => this.settle(slot, message))
        worker.on('error', (err) => this.lose(slot, err))
        worker.on('exit', (code) => this.lose(slot, new Error(`The embedding worker exited with code ${code}.`)))
        worker.unref()
        resolve()
      })
    })
  }

  /** A worker that crashed is dropped; its task fails and the others carry on. */
  private lose(slot: Slot, err: Error): void {
    const index = this.slots.indexOf(slot)
    if (index < 0) return
    this.slots.splice(index, 1)
    slot.busy?.reject(err)
    void slot.worker.terminate()
    this.pump()
  }
}
