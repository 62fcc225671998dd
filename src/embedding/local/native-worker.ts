/**
 * The thread the native model runs on (native-thread.ts): onnxruntime-node's `run` holds the
 * thread that calls it until the model is done, so on the main thread every batch stopped the
 * database, the service's socket and every other command for its whole length.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createNativeRunner, type NativeRunnerOptions } from './native-runner.js'
import type { NativeThreadReply, NativeThreadRequest } from './native-thread-protocol.js'

const port = parentPort!

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

try {
  const runner = await createNativeRunner(workerData as NativeRunnerOptions)
  port.on('message', (request: NativeThreadRequest) => {
    if (request.kind === 'release') {
      runner.release().then(
        () => port.postMessage({ kind: 'released' } satisfies NativeThreadReply),
        (err: unknown) => port.postMessage({ kind: 'released', error: messageOf(err) } satisfies NativeThreadReply),
      )
      return
    }
    // Tokenized here too, so the main thread does none of the model's work.
    runner.embedTokens(request.texts.map((text) => runner.tokenize(text))).then(
      (output) => {
        // A copy of its own: the runtime's output may be a view of memory the runtime owns.
        const vectors = new Float32Array(output)
        port.postMessage({ kind: 'vectors', id: request.id, vectors } satisfies NativeThreadReply, [vectors.buffer])
      },
      (err: unknown) => port.postMessage({ kind: 'vectors', id: request.id, error: messageOf(err) } satisfies NativeThreadReply),
    )
  })
  port.postMessage({ kind: 'ready' } satisfies NativeThreadReply)
} catch (err) {
  port.postMessage({ kind: 'failed', error: messageOf(err) } satisfies NativeThreadReply)
}
