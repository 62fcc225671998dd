import { ConfigError } from '../errors/index.js'
import { DEFAULT_LOCAL_BATCH_SIZE, DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_BATCH_SIZE, DEFAULT_OPENAI_MODEL, DEFAULT_OPENAI_TIMEOUT_MS, OPENAI_MAX_INPUTS_PER_REQUEST } from './constants.js'
import type { EmbeddingSettings } from './types.js'

export interface OpenAIConfig {
  apiKey: string
  baseURL: string
  model: string
  batchSize: number
  timeoutMs: number
  maxRetries: number | undefined
}

/**
 * Sent as the bearer token to a custom OpenAI-compatible server configured without a key; local
 * servers (Ollama, vLLM, LM Studio) ignore it, while the openai client refuses to start without one.
 */
const KEYLESS_PLACEHOLDER = 'no-key-configured'

export function resolveOpenAIConfig(settings: EmbeddingSettings): OpenAIConfig {
  const customBase = nonBlank(settings.openaiBaseUrl)
  const apiKey = nonBlank(settings.openaiApiKey)
  if (apiKey === undefined && customBase === undefined) {
    throw new ConfigError('embedding_api_key_missing', 'The openai embedding provider needs an API key.', {
      hint: 'Set OPENAI_API_KEY, configure an OpenAI-compatible base URL, or use the local embedding provider.',
    })
  }
  const model = nonBlank(settings.openaiModel) ?? DEFAULT_OPENAI_MODEL
  return {
    apiKey: apiKey ?? KEYLESS_PLACEHOLDER,
    baseURL: customBase ?? DEFAULT_OPENAI_BASE_URL,
    model,
    batchSize: Math.min(positiveInteger('batchSize', settings.batchSize, DEFAULT_OPENAI_BATCH_SIZE), OPENAI_MAX_INPUTS_PER_REQUEST),
    timeoutMs: positiveInteger('timeoutMs', settings.timeoutMs, DEFAULT_OPENAI_TIMEOUT_MS),
    maxRetries: settings.maxRetries === undefined ? undefined : nonNegativeInteger('maxRetries', settings.maxRetries),
  }
}

export function resolveLocalBatchSize(settings: EmbeddingSettings): number {
  return positiveInteger('batchSize', settings.batchSize, DEFAULT_LOCAL_BATCH_SIZE)
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  return trimmed === undefined || trimmed === '' ? undefined : trimmed
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1) throw invalidSetting(name, value, 'a positive integer')
  return value
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw invalidSetting(name, value, 'an integer >= 0')
  return value
}

function invalidSetting(name: string, value: unknown, expected: string): ConfigError {
  return new ConfigError('embedding_invalid_setting', `Embedding setting ${name} must be ${expected}, got ${String(value)}.`, {
    hint: `Fix the embedding ${name} setting in the brain configuration.`,
  })
}
