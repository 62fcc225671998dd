/** Messages between the fast local embedder's pool and its worker threads. */
export interface WorkerRequest {
  id: number
  /** Inputs of one model call. */
  texts: string[]
}

export type WorkerReply = { type: 'ready' } | { type: 'init-failed'; message: string } | { type: 'result'; id: number; vectors: Float32Array } | { type: 'error'; id: number; message: string }
