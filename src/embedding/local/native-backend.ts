import { throwIfAborted } from './abort.js'
import { batchFailed, planLengthSortedBatches, untilAborted, type LocalBackend } from './local-backends.js'
import { LOCAL_MODEL_NATIVE_DIMENSIONS } from './local-model.js'

/** The native model as the backend calls it: texts in, row-major [texts × 512] vectors out. */
export interface NativeModel {
  embedTexts(texts: readonly string[]): Promise<Float32Array>
  release(): Promise<void>
}

export interface NativeBackend extends LocalBackend {
  readonly kind: 'native'
  release(): Promise<void>
}

interface NativeBackendOptions {
  /** Model calls in flight at once for bulk work; an urgent call (a query) may add one more. */
  concurrency: number
}

/**
 * Admits at most `limit` bulk model calls at a time, in arrival order. Urgent calls (a search
 * query, a page's few chunks) go ahead of queued bulk calls and may use one extra slot, so a
 * query never waits behind an import's batches while at most limit + 1 calls share the cores.
 */
class CallGate {
  private running = 0
  private readonly waiting: Array<{ urgent: boolean; admit: () => void }> = []

  constructor(private readonly limit: number) {}

  async run<T>(call: () => Promise<T>, urgent: boolean): Promise<T> {
    if (this.fits(urgent)) this.running++
    // A waiter's slot is taken for it when it is admitted, so no later arrival can slip in between.
    else await new Promise<void>((admit) => this.enqueue({ urgent, admit }))
    try {
      return await call()
    } finally {
      this.running--
      this.admitNext()
    }
  }

  private enqueue(waiter: { urgent: boolean; admit: () => void }): void {
    const firstBulk = this.waiting.findIndex((w) => !w.urgent)
    if (waiter.urgent && firstBulk >= 0) this.waiting.splice(firstBulk, 0, waiter)
    else this.waiting.push(waiter)
  }

  private fits(urgent: boolean): boolean {
    return this.running < this.limit + (urgent ? 1 : 0)
  }

  private admitNext(): void {
    const next = this.waiting.findIndex((w) => this.fits(w.urgent))
    if (next < 0) return
    this.running++
    this.waiting.splice(next, 1)[0]!.admit()
  }
}

/**
 * The native path: inputs sorted by length and cut into batches (the model pads a batch to its
 * longest input), each tokenized and run by the model on a thread of its own.
 */
export function nativeBackend(model: NativeModel, options: NativeBackendOptions): NativeBackend {
  const gate = new CallGate(Math.max(1, Math.floor(options.concurrency)))
  return {
    kind: 'native',
    release: () => model.release(),
    async embed(inputs, batchSize, signal) {
      throwIfAborted(signal)
      const urgent = inputs.length <= batchSize
      const vectors = new Array<Float32Array>(inputs.length)
      let stopped = false
      const runBatch = async (rows: number[]): Promise<void> => {
        await gate.run(async () => {
          // A batch still queued when the caller gives up never reaches the model.
          if (stopped || signal?.aborted) return
          let flat: Float32Array
          try {
            flat = await model.embedTexts(rows.map((row) => inputs[row]!))
          } catch (err) {
            throw batchFailed(err)
          }
          rows.forEach((row, k) => {
            vectors[row] = flat.subarray(k * LOCAL_MODEL_NATIVE_DIMENSIONS, (k + 1) * LOCAL_MODEL_NATIVE_DIMENSIONS)
          })
        }, urgent)
      }
      const batches = planLengthSortedBatches(
        inputs.map((input) => input.length),
        batchSize,
      )
      try {
        await untilAborted(Promise.all(batches.map(runBatch)), signal)
      } finally {
        stopped = true
      }
      return vectors
    },
  }
}
