import type { JobName } from './types.js'

/**
 * Durations the queue runs on. Production uses DEFAULT_TIMINGS (the spec's numbers); tests pass
 * small overrides so that eviction, stall detection and liveness take milliseconds.
 */
export interface QueueTimings {
  /** A handler still running this long after its abort signal fired is evicted (job dead). */
  evictAfterMs: number
  /** How often a worker (or an inline run on the server engine) records that it is alive. */
  heartbeatMs: number
  /** A process whose last heartbeat is older than this is considered gone. */
  livenessMs: number
  /** Idle workers re-check the queue this often even without a wake-up signal. */
  pollMs: number
  /** pg-boss's own expiry of an active job: timeout + eviction + this slack, as a backstop. */
  leaseSlackMs: number
  /** At most one progress write (and NOTIFY) per job per this interval. */
  progressThrottleMs: number
}

export const DEFAULT_TIMINGS: QueueTimings = Object.freeze({
  evictAfterMs: 30_000,
  heartbeatMs: 5_000,
  livenessMs: 15_000,
  pollMs: 5_000,
  leaseSlackMs: 60_000,
  progressThrottleMs: 250,
})

export function resolveTimings(overrides: Partial<QueueTimings> = {}): QueueTimings {
  return { ...DEFAULT_TIMINGS, ...overrides }
}

const MINUTE = 60_000

/** Per-job timeouts when the submitter gives none. */
export const DEFAULT_TIMEOUT_MS: Readonly<Record<JobName, number>> = Object.freeze({
  sync: 60 * MINUTE,
  embed: 60 * MINUTE,
  extract: 30 * MINUTE,
  ingest_capture: 5 * MINUTE,
  'autopilot-cycle': 120 * MINUTE,
  shell: 30 * MINUTE,
  import: 120 * MINUTE,
  capture: 5 * MINUTE,
  // Re-embedding a large brain with a bigger model takes hours; a stopped switch resumes.
  'switch-model': 12 * 60 * MINUTE,
  capture_transcript: 5 * MINUTE,
})

export const DEFAULT_MAX_STALLED = 1

/** pg-boss refuses leases of 24 h or more; keep timeout + eviction + slack below that. */
export const MAX_TIMEOUT_MS = 23 * 60 * MINUTE

/** Claims and completions are batched up to this many jobs per statement. */
export const MAX_BATCH = 100

/** Seconds pg-boss keeps an active job before expiring it (our worker acts long before). */
export function leaseSeconds(timeoutMs: number, timings: QueueTimings): number {
  return Math.ceil((timeoutMs + timings.evictAfterMs + timings.leaseSlackMs) / 1000)
}
