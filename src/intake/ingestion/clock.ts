/** Time as the ingestion pipeline sees it; the test harness swaps in a fake one. */
export interface Clock {
  now(): number
  /** Resolves after `ms` (or rejects with the signal's reason when it fires first). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const onAbort = (): void => {
        clearTimeout(timer)
        reject(signal!.reason)
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      signal?.addEventListener('abort', onAbort, { once: true })
    }),
}

interface Sleeper {
  at: number
  resolve: () => void
}

/** A clock that moves only when told to; sleepers wake in time order as it passes them. */
export class FakeClock implements Clock {
  private current: number
  private sleepers: Sleeper[] = []

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'number' ? start : start.getTime()
  }

  now(): number {
    return this.current
  }

  /** How many sleeps are waiting for time to pass. */
  get pendingSleeps(): number {
    return this.sleepers.length
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason)
      const sleeper: Sleeper = { at: this.current + Math.max(0, ms), resolve }
      this.sleepers.push(sleeper)
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper)
          reject(signal.reason)
        },
        { once: true },
      )
    })
  }

  /** Moves time forward, waking every sleeper due on the way (letting each one's continuation run). */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms
    for (;;) {
      const due = this.sleepers.filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.sleepers = this.sleepers.filter((s) => s !== due)
      this.current = Math.max(this.current, due.at)
      due.resolve()
      await settle()
    }
    this.current = target
    await settle()
  }
}

/** Lets pending promise continuations and I/O callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}
