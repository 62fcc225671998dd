/**
 * Token buckets keyed by client (IP or token id), held in a bounded LRU. A bucket holds up to
 * `capacity` requests and refills at `refillPerSecond`; a key idle long enough to be full again
 * carries no information and is pruned, so memory stays bounded under address churn.
 */
export interface BucketOptions {
  capacity: number
  refillPerSecond: number
  /** Most keys kept; the least recently used is dropped beyond it. */
  maxKeys: number
  now?: () => number
}

export type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number }

interface Bucket {
  tokens: number
  updatedMs: number
}

export class TokenBucketLru {
  private readonly buckets = new Map<string, Bucket>()
  private readonly now: () => number
  private takesSincePrune = 0

  constructor(private readonly options: BucketOptions) {
    this.now = options.now ?? Date.now
  }

  get size(): number {
    return this.buckets.size
  }

  /** Milliseconds an empty bucket needs to be full again. */
  private get fullAfterMs(): number {
    return (this.options.capacity / this.options.refillPerSecond) * 1000
  }

  take(key: string): TakeResult {
    const now = this.now()
    if (++this.takesSincePrune >= 1000) this.prune(now)
    const previous = this.buckets.get(key)
    const bucket = previous ? this.refilled(previous, now) : { tokens: this.options.capacity, updatedMs: now }
    this.buckets.delete(key)
    this.buckets.set(key, bucket)
    if (this.buckets.size > this.options.maxKeys) {
      const oldest = this.buckets.keys().next().value
      if (oldest !== undefined) this.buckets.delete(oldest)
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return { allowed: true }
    }
    const waitSeconds = (1 - bucket.tokens) / this.options.refillPerSecond
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)) }
  }

  private refilled(bucket: Bucket, now: number): Bucket {
    const elapsed = Math.max(0, now - bucket.updatedMs) / 1000
    return { tokens: Math.min(this.options.capacity, bucket.tokens + elapsed * this.options.refillPerSecond), updatedMs: now }
  }

  /** Drops every bucket idle long enough to have refilled completely. */
  prune(now = this.now()): void {
    this.takesSincePrune = 0
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedMs >= this.fullAfterMs) this.buckets.delete(key)
    }
  }
}
