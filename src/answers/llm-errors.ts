import { ProviderError } from '../errors/index.js'

type OpenAIModule = typeof import('openai')

/** Where a chat request failed, for messages; never holds the key. */
export interface ChatTarget {
  url: string
  model: string
  timeoutMs: number
}

/** Replaces every occurrence of the key in a text: servers echo keys back in error messages. */
export function redactKey(text: string, key: string | null): string {
  if (key === null || key.length < 4) return text
  return text.split(key).join('[redacted]')
}

/** Seconds in a Retry-After header (a number or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined || value.trim() === '') return null
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000)
}

export class ChatError extends ProviderError {
  /** The server asked to wait this long before trying again (429 Retry-After), in seconds. */
  retryAfter: number | null = null
  /** Trying again may succeed (unreachable, timeout, 429, 5xx, a stream cut before any text). */
  retryable = false
}

function chatError(code: string, message: string, hint: string, retryable: boolean): ChatError {
  const error = new ChatError(code, message, { hint })
  error.retryable = retryable
  return error
}

/** A stream that ended before the model said it had finished. */
export function streamCutError(target: ChatTarget, textSoFar: boolean): ChatError {
  return chatError(
    'llm_stream_cut',
    `The answer from ${target.url} (model ${target.model}) stopped before it was complete.`,
    'The connection to the chat server broke mid-answer; ask again, or run with --json to get the whole answer in one response.',
    !textSoFar,
  )
}

/**
 * Maps a failure of the openai client to a ChatError with a stable code, by the client's error
 * classes and HTTP status only. The server's own words are kept, with the key taken out.
 */
export function toChatError(err: unknown, openai: OpenAIModule, target: ChatTarget, key: string | null): ChatError {
  if (err instanceof ChatError) return err
  const where = `${target.url} (model ${target.model})`
  const detail = redactKey(err instanceof Error ? err.message : String(err), key)
  // The timeout error is a subclass of the connection error: test it first.
  if (err instanceof openai.APIConnectionTimeoutError) {
    return chatError('llm_timeout', `The chat server at ${where} did not answer within ${target.timeoutMs} ms.`, 'Retry later, or raise BRAIN_LLM_TIMEOUT for a slow local model.', true)
  }
  if (err instanceof openai.APIConnectionError) {
    return chatError(
      'llm_unreachable',
      `Could not reach the chat server at ${target.url}: ${detail}`,
      'Check that the server is running and that llm.url is its OpenAI-compatible base URL (e.g. http://127.0.0.1:11434/v1).',
      true,
    )
  }
  if (err instanceof openai.AuthenticationError) {
    return chatError('llm_auth_failed', `The chat server at ${target.url} rejected the API key (401).`, 'Set BRAIN_LLM_API_KEY (or OPENAI_API_KEY) to a valid key for llm.url.', false)
  }
  if (err instanceof openai.PermissionDeniedError) {
    return chatError('llm_permission_denied', `The API key may not use ${where} (403).`, "Check the key's permissions for the model, or pick another model with brain config set llm.model.", false)
  }
  if (err instanceof openai.NotFoundError) {
    return chatError('llm_model_not_found', `The chat model or endpoint was not found at ${where} (404): ${detail}`, 'Check llm.model and that llm.url ends in the API root (…/v1).', false)
  }
  if (err instanceof openai.RateLimitError) {
    const wait = retryAfterSeconds(err.headers?.get('retry-after'))
    const error = chatError(
      'llm_rate_limited',
      `The chat server at ${target.url} is rate limiting (429)${wait !== null ? `; it asks to retry after ${Math.ceil(wait)} s` : ''}.`,
      'Wait and ask again, or check the account quota.',
      true,
    )
    error.retryAfter = wait
    return error
  }
  if (err instanceof openai.InternalServerError) {
    return chatError('llm_server_error', `The chat server at ${where} failed (${err.status}): ${detail}`, 'A server-side error; ask again later.', true)
  }
  if (err instanceof openai.APIError) {
    return chatError('llm_request_failed', `The chat request to ${where} failed with status ${err.status ?? 'unknown'}: ${detail}`, 'Check llm.url, llm.model and the server logs.', false)
  }
  return chatError('llm_request_failed', `The chat request to ${where} failed: ${detail}`, 'Check llm.url, llm.model and the server logs.', false)
}
