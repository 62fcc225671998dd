import type { Clock } from './clock.js'

interface RateDecision {
  allowed: boolean
  /** When refused: how long until one more event is allowed. */
  retryAfterMs: number
}

interface Bucket {
  tokens: number
  updatedAt: number
}

/**
 * A token bucket per key (client IP, source id): `capacity` events, refilled evenly over
 * `intervalMs`. At most `maxKeys` buckets are kept; the least recently used is dropped first,
 * and buckets that have refilled completely are pruned, since they hold no state worth keeping.
 */
export class KeyedRateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly clock: Clock,
    private readonly capacity = 100,
    private readonly intervalMs = 10_000,
    private readonly maxKeys = 10_000,
  ) {}

  take(key: string): RateDecision {
    const now = this.clock.now()
    const bucket = this.refilled(key, now)
    this.buckets.delete(key)
    this.buckets.set(key, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      this.trim(now)
      return { allowed: true, retryAfterMs: 0 }
    }
    const perMs = this.capacity / this.intervalMs
    return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / perMs) }
  }

  private refilled(key: string, now: number): Bucket {
    const bucket = this.buckets.get(key)
    if (!bucket) return { tokens: this.capacity, updatedAt: now }
    const gained = ((now - bucket.updatedAt) * this.capacity) / this.intervalMs
    return { tokens: Math.min(this.capacity, bucket.tokens + gained), updatedAt: now }
  }

  private trim(now: number): void {
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value as string
      this.buckets.delete(oldest)
    }
    if (this.buckets.size < this.maxKeys / 2) return
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) * this.capacity) / this.intervalMs >= this.capacity) this.buckets.delete(key)
    }
  }
}
