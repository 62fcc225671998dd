/** The worker thread of `convertBounded`: converts the one file it was given and posts the result. */
import { parentPort, workerData } from 'node:worker_threads'
import { convert } from './index.js'
import type { ConvertInput, ConvertLimits } from './types.js'

const { input, limits } = workerData as { input: ConvertInput; limits: ConvertLimits }

convert(input, limits).then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (err: unknown) => {
    const e = err as { code?: unknown; message?: unknown; errorClass?: unknown }
    const known = e.errorClass === 'ConvertError' && typeof e.code === 'string'
    parentPort?.postMessage({ ok: false, code: known ? e.code : 'convert_corrupt', message: String(e.message ?? err) })
  },
)
