import type { Clock } from './clock.js'

const DEDUPE_WINDOW_MS = 24 * 60 * 60 * 1000
export const DEDUPE_MAX_ENTRIES = 5000

/**
 * Content hashes seen in the last 24 hours, at most 5000 of them; when full, the oldest entry is
 * dropped. Insertion order of the map is age order, so pruning only ever looks at the front.
 */
export class DedupeWindow {
  private readonly seenAt = new Map<string, number>()

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = DEDUPE_WINDOW_MS,
    private readonly maxEntries = DEDUPE_MAX_ENTRIES,
  ) {}

  get size(): number {
    this.prune()
    return this.seenAt.size
  }

  has(hash: string): boolean {
    this.prune()
    return this.seenAt.has(hash)
  }

  remember(hash: string): void {
    this.seenAt.delete(hash)
    this.seenAt.set(hash, this.clock.now())
    while (this.seenAt.size > this.maxEntries) {
      const oldest = this.seenAt.keys().next().value as string
      this.seenAt.delete(oldest)
    }
  }

  forget(hash: string): void {
    this.seenAt.delete(hash)
  }

  private prune(): void {
    const cutoff = this.clock.now() - this.windowMs
    for (const [hash, at] of this.seenAt) {
      if (at > cutoff) break
      this.seenAt.delete(hash)
    }
  }
}
