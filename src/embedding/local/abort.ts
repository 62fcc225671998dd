import { ProviderError } from '../../errors/index.js'

export function abortedError(signal: AbortSignal | undefined): ProviderError {
  return new ProviderError('embedding_aborted', 'Embedding was aborted before it finished.', {
    hint: 'The caller cancelled the operation (shutdown or timeout); chunks keep NULL embeddings and embed --stale picks them up.',
    cause: signal?.reason,
  })
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError(signal)
}
