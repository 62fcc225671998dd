import { Worker } from 'node:worker_threads'
import { ConvertError, type ConvertErrorCode } from './errors.js'
import type { SourceFormat } from './registry/index.js'
import { DEFAULT_LIMITS, type ConvertInput, type ConvertLimits, type ConvertResult as FormatResult } from './types.js'

type ConvertResult = FormatResult<SourceFormat>

type WorkerReply = { id: number; ok: true; result: ConvertResult } | { id: number; ok: false; code: ConvertErrorCode; message: string; hint: string }

interface SharedWorker {
  worker: Worker
  memoryMb: number
  /** The waiting call's handler; the worker converts one file at a time. */
  onReply: ((reply: WorkerReply) => void) | null
  onFailure: ((err: ConvertError) => void) | null
}

let shared: SharedWorker | null = null
/** Calls run one after another on the one worker. */
let queue: Promise<unknown> = Promise.resolve()
let nextId = 1

function startWorker(memoryMb: number): SharedWorker {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: memoryMb } })
  const entry: SharedWorker = { worker, memoryMb, onReply: null, onFailure: null }
  worker.on('message', (reply: WorkerReply) => entry.onReply?.(reply))
  worker.on('error', (err: Error & { code?: string }) => {
    const code: ConvertErrorCode = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'convert_too_large' : 'convert_corrupt'
    entry.onFailure?.(new ConvertError(code, err.message))
  })
  worker.on('exit', (exitCode) => {
    if (shared === entry) shared = null
    entry.onFailure?.(new ConvertError('convert_corrupt', `the converter stopped (exit ${exitCode})`))
  })
  // An idle converter never keeps the process alive (unref after the listeners, which ref the port).
  worker.unref()
  return entry
}

function stopWorker(entry: SharedWorker): void {
  if (shared === entry) shared = null
  entry.onReply = null
  entry.onFailure = null
  void entry.worker.terminate()
}

async function runInWorker(input: ConvertInput, limits: ConvertLimits): Promise<ConvertResult> {
  const timeMs = limits.timeMs ?? DEFAULT_LIMITS.timeMs!
  const memoryMb = limits.maxMemoryMb ?? DEFAULT_LIMITS.maxMemoryMb!
  if (shared !== null && shared.memoryMb !== memoryMb) stopWorker(shared)
  const entry = (shared ??= startWorker(memoryMb))
  const id = nextId++
  return new Promise<ConvertResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A parser past its time is stopped whole; the next file gets a fresh worker.
      stopWorker(entry)
      reject(new ConvertError('convert_timeout', `${input.name}: conversion took longer than ${timeMs} ms and was stopped`))
    }, timeMs)
    entry.onReply = (reply) => {
      if (reply.id !== id) return
      clearTimeout(timer)
      entry.onReply = entry.onFailure = null
      if (reply.ok) resolve(reply.result)
      else reject(new ConvertError(reply.code, reply.message, reply.hint))
    }
    entry.onFailure = (err) => {
      clearTimeout(timer)
      stopWorker(entry)
      reject(new ConvertError(err.code as ConvertErrorCode, `${input.name}: ${err.message}`))
    }
    entry.worker.postMessage({ id, input, limits })
  })
}

/**
 * Converts one untrusted file in a worker thread that is terminated when it runs past the time
 * limit or its heap limit, so a parser stuck on a hostile file never holds up or takes down the
 * caller. The worker is kept for the next file (loading the parsers costs more than most files);
 * the size cap is checked before anything is sent to it.
 */
export async function convertBounded(input: ConvertInput, limits: ConvertLimits = DEFAULT_LIMITS): Promise<ConvertResult> {
  if (input.bytes.byteLength > limits.maxBytes) {
    throw new ConvertError('convert_too_large', `${input.name}: ${input.bytes.byteLength} bytes exceed ${limits.maxBytes}`)
  }
  const run = queue.then(() => runInWorker(input, limits))
  queue = run.catch(() => undefined)
  return run
}
