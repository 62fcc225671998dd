import type { SqlExecutor } from '../db/index.js'
import { UsageError } from '../errors/index.js'

/** The OpenAI-compatible base URL `brain ask` sends the context pack to (…/v1). */
export const LLM_URL_KEY = 'llm.url'
/** The chat model asked at that URL. */
export const LLM_MODEL_KEY = 'llm.model'

/** What the answer step needs to reach its model; the key comes from the environment only. */
export interface LlmSettings {
  url: string
  model: string
  apiKey: string | null
  timeoutMs: number
}

/** The chat model, or null when `llm.url` or `llm.model` is not set. */
export async function readLlmSettings(db: SqlExecutor, llm: { apiKey: string | null; timeoutMs: number }): Promise<LlmSettings | null> {
  const { rows } = await db.query<{ key: string; value: string }>('SELECT key, value FROM config WHERE key = ANY($1::text[])', [[LLM_URL_KEY, LLM_MODEL_KEY]])
  const value = (key: string): string => rows.find((r) => r.key === key)?.value.trim() ?? ''
  const url = value(LLM_URL_KEY)
  const model = value(LLM_MODEL_KEY)
  if (url === '' || model === '') return null
  return { url, model, apiKey: llm.apiKey, timeoutMs: llm.timeoutMs }
}

/** `config set llm.url`: an http(s) URL, kept without trailing slashes. */
export function normalizeLlmUrl(value: string): string {
  const text = value.trim()
  let parsed: URL
  try {
    parsed = new URL(text)
  } catch {
    throw new UsageError('invalid_config_value', `llm.url must be an http(s) URL, not "${value}".`, { hint: 'For example: brain config set llm.url http://127.0.0.1:11434/v1' })
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError('invalid_config_value', `llm.url must be an http(s) URL, not "${value}".`, { hint: 'For example: brain config set llm.url http://127.0.0.1:11434/v1' })
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UsageError('invalid_config_value', 'llm.url must not hold credentials.', { hint: 'Put the key in BRAIN_LLM_API_KEY (or OPENAI_API_KEY) instead.' })
  }
  return text.replace(/\/+$/, '')
}
