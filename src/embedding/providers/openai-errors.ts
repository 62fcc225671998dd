import { ProviderError } from '../../errors/index.js'
import { abortedError } from '../local/abort.js'

export type OpenAIModule = typeof import('openai')

export interface RequestContext {
  baseURL: string
  model: string
  timeoutMs: number
  signal?: AbortSignal
}

/**
 * Maps a failure of the openai client to a ProviderError with a stable code. Classification uses
 * the client's error classes and HTTP status only; the message text is for humans.
 */
export function toProviderError(err: unknown, openai: OpenAIModule, context: RequestContext): ProviderError {
  if (err instanceof ProviderError) return err
  if (context.signal?.aborted) return abortedError(context.signal)
  const detail = err instanceof Error ? err.message : String(err)
  const make = (code: string, message: string, hint: string): ProviderError => new ProviderError(code, `${message} (${context.baseURL}, model ${context.model}): ${detail}`, { hint, cause: err })

  if (err instanceof openai.APIUserAbortError) return abortedError(context.signal)
  // Order matters: the timeout error is a subclass of the connection error.
  if (err instanceof openai.APIConnectionTimeoutError) {
    return make(
      'embedding_timeout',
      `Embedding request timed out after ${context.timeoutMs} ms`,
      'The embedding server did not answer in time; retry later, or raise the embedding timeout for a slow server.',
    )
  }
  if (err instanceof openai.APIConnectionError) {
    return make('embedding_connection_failed', 'Could not reach the embedding server', 'Check the network and the configured OpenAI base URL; a local OpenAI-compatible server must be running.')
  }
  if (err instanceof openai.AuthenticationError) {
    return make('embedding_auth_failed', 'The embedding server rejected the API key', 'Check OPENAI_API_KEY (or the configured key for this base URL); it may be missing, mistyped or revoked.')
  }
  if (err instanceof openai.PermissionDeniedError) {
    return make('embedding_permission_denied', 'The API key may not use this embedding model', "Check the key's project permissions for the embedding model, or pick another model.")
  }
  if (err instanceof openai.NotFoundError) {
    return make('embedding_model_not_found', 'The embedding model or endpoint was not found', 'Check the configured embedding model name and that the base URL ends in the API root (e.g. .../v1).')
  }
  if (err instanceof openai.RateLimitError) {
    return make('embedding_rate_limited', 'The embedding server is rate limiting or out of quota', "Wait and run `brain embed --stale` again, or check the account's quota and billing.")
  }
  if (err instanceof openai.BadRequestError || err instanceof openai.UnprocessableEntityError) {
    return make(
      'embedding_request_rejected',
      'The embedding server rejected the request',
      'The model may not support `dimensions: 1536` or the input; use text-embedding-3-large/-small or a server model with 1536 dimensions.',
    )
  }
  if (err instanceof openai.InternalServerError) {
    return make('embedding_server_error', 'The embedding server failed', 'A server-side error; retry later. Chunks stay unembedded until `brain embed --stale` succeeds.')
  }
  if (err instanceof openai.APIError) {
    return make('embedding_request_failed', `Embedding request failed with status ${err.status ?? 'unknown'}`, 'Retry later; if it persists, check the embedding server and its logs.')
  }
  return make('embedding_request_failed', 'Embedding request failed', 'Retry later; if it persists, check the embedding configuration.')
}
