import { Worker } from 'node:worker_threads'
import { ConvertError, type ConvertErrorCode } from './errors.js'
import { DEFAULT_LIMITS, type ConvertInput, type ConvertLimits, type ConvertResult } from './types.js'

type WorkerReply = { ok: true; result: ConvertResult } | { ok: false; code: ConvertErrorCode; message: string }

/**
 * Converts one untrusted file in a worker thread that is terminated when it runs past the time
 * limit or its heap limit, so a parser stuck on a hostile file never holds up or takes down the
 * caller. The size cap is checked before any worker starts.
 */
export async function convertBounded(input: ConvertInput, limits: ConvertLimits = DEFAULT_LIMITS): Promise<ConvertResult> {
  if (input.bytes.byteLength > limits.maxBytes) {
    throw new ConvertError('convert_too_large', `${input.name}: ${input.bytes.byteLength} bytes exceed ${limits.maxBytes}`)
  }
  const timeMs = limits.timeMs ?? DEFAULT_LIMITS.timeMs!
  const worker = new Worker(new URL('./worker.js', import.meta.url), {
    workerData: { input, limits },
    resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb ?? DEFAULT_LIMITS.maxMemoryMb! },
    stdout: true,
    stderr: true,
  })
  return new Promise<ConvertResult>((resolve, reject) => {
    let settled = false
    const finish = (outcome: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      outcome()
    }
    const timer = setTimeout(() => finish(() => reject(new ConvertError('convert_timeout', `${input.name}: conversion took longer than ${timeMs} ms and was stopped`))), timeMs)
    worker.once('message', (reply: WorkerReply) =>
      finish(() => (reply.ok ? resolve(reply.result) : reject(new ConvertError(reply.code, reply.message)))),
    )
    worker.once('error', (err: Error & { code?: string }) => {
      const code: ConvertErrorCode = err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'convert_too_large' : 'convert_corrupt'
      finish(() => reject(new ConvertError(code, `${input.name}: ${err.message}`)))
    })
    worker.once('exit', (exitCode) => finish(() => reject(new ConvertError('convert_corrupt', `${input.name}: the converter stopped (exit ${exitCode})`))))
  })
}
