import { Worker } from 'node:worker_threads'
import { disableRuntimeTelemetry } from '../../config/index.js'
import type { NativeModel } from './native-backend.js'
import type { NativeRunnerOptions } from './native-runner.js'
import type { NativeThreadReply, NativeThreadRequest } from './native-thread-protocol.js'

/**
 * The native model on a thread of its own (native-worker.ts), so a batch being embedded no longer
 * holds the main thread: an import's writes, the service's other commands and the embedded
 * database go on beside it. Calls are answered in the order they were sent.
 */
export async function startNativeThread(options: NativeRunnerOptions): Promise<NativeModel> {
  // Set here, where it reaches the process's environment; a thread's environment is a copy.
  disableRuntimeTelemetry()
  const thread = new Worker(new URL('./native-worker.js', import.meta.url), { workerData: options, stdout: false, stderr: false })
  const waiting = new Map<number, { resolve: (vectors: Float32Array) => void; reject: (err: Error) => void }>()
  let released: ((error: string | undefined) => void) | undefined
  let failed: Error | null = null
  const failAll = (err: Error): void => {
    failed ??= err
    for (const w of waiting.values()) w.reject(failed)
    waiting.clear()
    released?.(failed.message)
  }
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(err)
    const onExit = (): void => reject(new Error('The native model thread stopped before it started.'))
    thread.once('error', onError)
    thread.once('exit', onExit)
    thread.once('message', (reply: NativeThreadReply) => {
      thread.off('error', onError)
      thread.off('exit', onExit)
      if (reply.kind === 'ready') resolve()
      else reject(new Error(reply.kind === 'failed' ? reply.error : 'The native model thread did not start.'))
    })
  }).catch(async (err: unknown) => {
    await thread.terminate()
    throw err
  })
  thread.on('error', failAll)
  thread.on('exit', () => failAll(new Error('The native model thread stopped.')))
  thread.on('message', (reply: NativeThreadReply) => {
    if (reply.kind === 'released') return released?.(reply.error)
    if (reply.kind !== 'vectors') return
    const w = waiting.get(reply.id)
    if (w === undefined) return
    waiting.delete(reply.id)
    if (waiting.size === 0) thread.unref()
    if (reply.vectors !== undefined) w.resolve(reply.vectors)
    else w.reject(new Error(reply.error ?? 'The native model returned nothing.'))
  })
  // The thread keeps the process alive only while a call waits for it: an idle model never keeps
  // a finished command from exiting. Listening to the thread refs it again, so this comes last.
  thread.unref()
  const send = (request: NativeThreadRequest): void => thread.postMessage(request)
  let nextId = 0
  return {
    embedTexts(texts) {
      if (failed) return Promise.reject(failed)
      const id = nextId++
      return new Promise<Float32Array>((resolve, reject) => {
        if (waiting.size === 0) thread.ref()
        waiting.set(id, { resolve, reject })
        send({ kind: 'embed', id, texts })
      })
    },
    async release() {
      const error = failed
        ? undefined
        : await new Promise<string | undefined>((resolve) => {
            released = resolve
            thread.ref()
            send({ kind: 'release' })
          })
      thread.removeAllListeners('exit')
      failAll(new Error('The native model is released.'))
      await thread.terminate()
      if (error !== undefined) throw new Error(error)
    },
  }
}
