import { isBrainError, serializeError, type ErrorEnvelope } from '../../src/errors/index.js'
import type { PhaseName } from '../../src/queue/index.js'

/** Stored as the job's result, so in the JSON spelling the CLI prints. */
export interface PhaseReport {
  phase: PhaseName
  status: 'completed' | 'skipped' | 'failed'
  /** Why a phase was skipped: a code such as `sync_not_available` or `aborted`. */
  reason?: string
  detail?: string
  result?: unknown
  error?: ErrorEnvelope
  duration_ms: number
}

/** A handler that has not landed reports "not available": the phase is skipped, not failed. */
export function skipOrFail(phase: PhaseName, err: unknown, started: number): PhaseReport {
  const duration_ms = Date.now() - started
  if (isBrainError(err) && err.errorClass === 'NotAvailableError') {
    return { phase, status: 'skipped', reason: err.code, detail: err.message, duration_ms }
  }
  return { phase, status: 'failed', error: serializeError(err), duration_ms }
}

/** The slugs a sync result says it touched; undefined when the result does not say. */
export function touchedSlugs(result: unknown): string[] | undefined {
  if (result === null || typeof result !== 'object') return undefined
  const slugs = (result as { slugs?: unknown }).slugs
  if (!Array.isArray(slugs)) return undefined
  return slugs.filter((s): s is string => typeof s === 'string')
}
