export interface RestartPolicyOptions {
  /** Consecutive crashes after which the supervisor gives up (the spec's 5). */
  maxCrashes: number
  /** A worker that ran this long before exiting resets the crash count (the spec's 5 min). */
  stableAfterMs: number
  /** First restart delay; each further consecutive crash doubles it, up to maxDelayMs. */
  baseDelayMs: number
  maxDelayMs: number
}

const DEFAULT_RESTART_POLICY: RestartPolicyOptions = Object.freeze({
  maxCrashes: 5,
  stableAfterMs: 5 * 60_000,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
})

interface RestartDecision {
  /** Consecutive crashes including this one. */
  crashes: number
  giveUp: boolean
  delayMs: number
}

/** Counts consecutive worker crashes and decides the backoff; pure, so tests need no clock. */
export class RestartPolicy {
  private crashes = 0
  private readonly options: RestartPolicyOptions

  constructor(options: Partial<RestartPolicyOptions> = {}) {
    this.options = { ...DEFAULT_RESTART_POLICY, ...options }
  }

  get consecutiveCrashes(): number {
    return this.crashes
  }

  recordExit(uptimeMs: number): RestartDecision {
    if (uptimeMs >= this.options.stableAfterMs) this.crashes = 0
    this.crashes++
    const delayMs = Math.min(this.options.baseDelayMs * 2 ** (this.crashes - 1), this.options.maxDelayMs)
    return { crashes: this.crashes, giveUp: this.crashes >= this.options.maxCrashes, delayMs }
  }
}
