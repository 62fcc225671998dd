import type { OpenAI } from 'openai'
import type { LlmSettings } from '../config/index.js'
import { ChatError, streamCutError, toChatError, type ChatTarget } from './llm-errors.js'
import type { ChatMessage } from './prompt.js'

export interface ChatOptions {
  /** Receives the answer's text as it arrives; without it the answer is asked for whole. */
  onText?: (text: string) => void
  signal?: AbortSignal
  /** Tries after the first (default 2). */
  retries?: number
  /** The longest a Retry-After is waited for before giving up (default 30 s). */
  maxRetryWaitMs?: number
  /** Waits between tries; tests pass a recorder. */
  sleep?: (ms: number) => Promise<void>
}

export interface ChatReply {
  text: string
  model: string
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * The one chat client: any OpenAI-compatible base URL (OpenAI, Ollama, llama.cpp's server, vLLM).
 * Failures become ChatErrors with stable codes; unreachable, timeouts, 429 and 5xx are tried
 * again a bounded number of times, honouring Retry-After. The key goes into the Authorization
 * header only: it is never printed, logged or put in an error.
 */
export async function chat(settings: LlmSettings, messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<ChatReply> {
  const openai = await import('openai')
  const client = new openai.OpenAI({
    baseURL: settings.url,
    // Local servers need no key; the client wants one all the same.
    apiKey: settings.apiKey ?? 'no-key',
    timeout: settings.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
  })
  const target: ChatTarget = { url: settings.url, model: settings.model, timeoutMs: settings.timeoutMs }
  const retries = options.retries ?? 2
  const sleep = options.sleep ?? wait
  for (let attempt = 0; ; attempt++) {
    let textSoFar = false
    try {
      const onText = options.onText
      if (onText === undefined) return await whole(client, settings.model, messages, options.signal, target)
      return await streamed(client, settings.model, messages, options.signal, target, (text) => {
        textSoFar = true
        onText(text)
      })
    } catch (err) {
      if (options.signal?.aborted) throw err
      const error = err instanceof ChatError ? err : toChatError(err, openai, target, settings.apiKey)
      if (textSoFar && error.code !== 'llm_stream_cut') throw streamCutError(target, true)
      if (!error.retryable || attempt >= retries) throw error
      const delayMs = error.retryAfter !== null ? error.retryAfter * 1000 : 500 * 2 ** attempt
      if (delayMs > (options.maxRetryWaitMs ?? 30_000)) throw error
      await sleep(delayMs)
    }
  }
}

async function whole(client: OpenAI, model: string, messages: readonly ChatMessage[], signal: AbortSignal | undefined, target: ChatTarget): Promise<ChatReply> {
  const response = await client.chat.completions.create({ model, messages: [...messages], stream: false }, { signal })
  const choice = response.choices[0]
  if (choice === undefined || typeof choice.message?.content !== 'string') throw streamCutError(target, false)
  return { text: choice.message.content, model: response.model || model }
}

async function streamed(client: OpenAI, model: string, messages: readonly ChatMessage[], signal: AbortSignal | undefined, target: ChatTarget, onText: (text: string) => void): Promise<ChatReply> {
  const stream = await client.chat.completions.create({ model, messages: [...messages], stream: true }, { signal })
  let text = ''
  let finished = false
  let answeredBy = model
  try {
    for await (const chunk of stream) {
      if (chunk.model) answeredBy = chunk.model
      const choice = chunk.choices[0]
      const delta = choice?.delta?.content
      if (typeof delta === 'string' && delta !== '') {
        text += delta
        onText(delta)
      }
      if (choice?.finish_reason) finished = true
    }
  } catch (err) {
    if (signal?.aborted) throw err
    throw streamCutError(target, text !== '')
  }
  if (!finished) throw streamCutError(target, text !== '')
  return { text, model: answeredBy }
}

/** The models the server lists, for `brain doctor`; a ChatError when it does not answer. */
export async function listModels(settings: LlmSettings): Promise<string[]> {
  const openai = await import('openai')
  const client = new openai.OpenAI({ baseURL: settings.url, apiKey: settings.apiKey ?? 'no-key', timeout: Math.min(settings.timeoutMs, 10_000), maxRetries: 0, logLevel: 'off' })
  try {
    const ids: string[] = []
    for await (const model of client.models.list()) ids.push(model.id)
    return ids
  } catch (err) {
    throw toChatError(err, openai, { url: settings.url, model: settings.model, timeoutMs: Math.min(settings.timeoutMs, 10_000) }, settings.apiKey)
  }
}
