/**
 * Worker thread entry of the fast local embedder: loads USE Lite once on the wasm backend and
 * answers requests, one model call each; vectors go back in input order as one transferred
 * Float32Array.
 */
import { parentPort } from 'node:worker_threads'
import { createUseLiteRunner, type UseLiteRunner } from './use-lite-runner.js'
import type { WorkerReply, WorkerRequest } from './worker-protocol.js'
import { LOCAL_MODEL_NATIVE_DIMENSIONS } from './local-model.js'

const port = parentPort
if (port === null) throw new Error('embed-worker must run in a worker thread.')

// Whatever the model library logs would land in the command's stdout (JSON) or stderr; failures
// travel back as messages instead.
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = () => undefined

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

async function embedRequest(runner: UseLiteRunner, request: WorkerRequest): Promise<Float32Array> {
  const vectors = await runner.embedTokens(request.texts.map((text) => runner.tokenize(text)))
  const out = new Float32Array(request.texts.length * LOCAL_MODEL_NATIVE_DIMENSIONS)
  vectors.forEach((vector, row) => out.set(vector, row * LOCAL_MODEL_NATIVE_DIMENSIONS))
  return out
}

const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []): void => port.postMessage(reply, transfer)

createUseLiteRunner().then(
  (runner) => {
    port.on('message', (request: WorkerRequest) => {
      embedRequest(runner, request).then(
        (vectors) => post({ type: 'result', id: request.id, vectors }, [vectors.buffer as ArrayBuffer]),
        (err: unknown) => post({ type: 'error', id: request.id, message: errorMessage(err) }),
      )
    })
    post({ type: 'ready' })
  },
  (err: unknown) => post({ type: 'init-failed', message: errorMessage(err) }),
)
