/** The worker thread of `convertBounded`: converts each file it is sent, one at a time, and posts the result. */
import { parentPort } from 'node:worker_threads'
import { convert } from './index.js'
import type { ConvertInput, ConvertLimits } from './types.js'

parentPort?.on('message', (request: { id: number; input: ConvertInput; limits: ConvertLimits }) => {
  convert(request.input, request.limits).then(
    (result) => parentPort?.postMessage({ id: request.id, ok: true, result }),
    (err: unknown) => {
      const e = err as { code?: unknown; message?: unknown; errorClass?: unknown; hint?: unknown }
      const known = e.errorClass === 'ConvertError' && typeof e.code === 'string'
      parentPort?.postMessage({ id: request.id, ok: false, code: known ? e.code : 'convert_corrupt', message: String(e.message ?? err), hint: typeof e.hint === 'string' ? e.hint : '' })
    },
  )
})
