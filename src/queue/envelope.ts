import { createHash, randomUUID } from 'node:crypto'
import { UsageError } from '../errors/index.js'
import type { JobEnvelope } from './boss-sql.js'
import { DEFAULT_MAX_STALLED, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './settings.js'
import { isJobName, JOB_NAMES, type JobName, type SubmitOptions } from './types.js'

/** The name as a JobName, or a UsageError naming the valid ones. */
export function toJobName(name: string): JobName {
  if (!isJobName(name)) {
    throw new UsageError('unknown_job_name', `There is no job named "${name}".`, {
      hint: `Job names: ${JOB_NAMES.join(', ')}.`,
    })
  }
  return name
}

function integerIn(label: string, value: number | undefined, min: number, max: number): void {
  if (value === undefined) return
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`invalid_${label}`, `${label} must be a whole number from ${min} to ${max}, not ${value}.`)
  }
}

/** The stored envelope for a submission, after checking the options. */
export function buildEnvelope(name: JobName, data: Record<string, unknown>, options: SubmitOptions): JobEnvelope {
  integerIn('timeout_ms', options.timeoutMs, 1, MAX_TIMEOUT_MS)
  integerIn('max_stalled', options.maxStalled, 0, 100)
  integerIn('priority', options.priority, -1_000_000, 1_000_000)
  const key = options.idempotencyKey
  if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > 512)) {
    throw new UsageError('invalid_idempotency_key', 'An idempotency key must be a non-empty string of at most 512 characters.')
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UsageError('invalid_job_data', 'Job data must be a JSON object.')
  }
  const untrusted = data.untrusted_payload === true
  return {
    // Every record states whether its payload came from outside (the /ingest route sets it).
    payload: { ...data, untrusted_payload: untrusted },
    timeout_ms: options.timeoutMs ?? DEFAULT_TIMEOUT_MS[name],
    max_stalled: options.maxStalled ?? DEFAULT_MAX_STALLED,
    idempotency_key: key ?? null,
    // A payload from outside never chooses the settings it runs with.
    ...(options.settings && !untrusted ? { settings: options.settings } : {}),
  }
}

function isSettings(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')
}

/** Reads what a claimed job carries, tolerating rows pg-boss wrote without our envelope. */
export function readEnvelope(name: JobName, stored: unknown): JobEnvelope {
  const value = (stored !== null && typeof stored === 'object' ? stored : {}) as Partial<JobEnvelope>
  const payload = value.payload !== null && typeof value.payload === 'object' ? value.payload : (value as Record<string, unknown>)
  return {
    payload,
    timeout_ms: typeof value.timeout_ms === 'number' ? value.timeout_ms : DEFAULT_TIMEOUT_MS[name],
    max_stalled: typeof value.max_stalled === 'number' ? value.max_stalled : DEFAULT_MAX_STALLED,
    idempotency_key: typeof value.idempotency_key === 'string' ? value.idempotency_key : null,
    ...(isSettings(value.settings) ? { settings: value.settings } : {}),
  }
}

/** The job id for a submission: fixed by (name, idempotency key), random without a key. */
export function jobIdFor(name: JobName, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return randomUUID()
  const hex = createHash('sha256').update(`${name}\u0000${idempotencyKey}`).digest('hex')
  // Shaped as an RFC 9562 version-8 (custom) UUID.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
