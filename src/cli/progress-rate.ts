/**
 * Items per second and time left for a progress line, over a sliding window so the figure follows
 * the current speed (the first batches include model loading). The clock is injected for tests.
 */
export class RateMeter {
  private samples: Array<{ at: number; done: number }> = []
  private key = ''

  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records `done` of `total`; returns the rate and seconds left once two samples exist. */
  sample(done: number, total: number | undefined, phase: string): { perSecond: number; etaSeconds: number | undefined } | undefined {
    const key = `${phase}\u0000${total ?? ''}`
    const at = this.now()
    // A new phase (files, then chunks) or a new total starts a new measurement.
    if (key !== this.key || done < (this.samples.at(-1)?.done ?? 0)) {
      this.key = key
      this.samples = []
    }
    this.samples.push({ at, done })
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs) this.samples.shift()
    const first = this.samples[0]!
    const seconds = (at - first.at) / 1000
    if (this.samples.length < 2 || seconds <= 0 || done === first.done) return undefined
    const perSecond = (done - first.done) / seconds
    const etaSeconds = total === undefined ? undefined : Math.max(0, total - done) / perSecond
    return { perSecond, etaSeconds }
  }
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`
}

/** " · 34.2 chunks/s · ETA 1m05s", or '' before a rate is known. */
export function rateSuffix(meter: RateMeter, done: number, total: number | undefined, unit: string | undefined): string {
  const rate = meter.sample(done, total, unit ?? '')
  if (rate === undefined) return ''
  const perSecond = rate.perSecond >= 10 ? rate.perSecond.toFixed(0) : rate.perSecond.toFixed(1)
  const eta = rate.etaSeconds === undefined ? '' : ` · ETA ${formatDuration(rate.etaSeconds)}`
  return ` · ${perSecond} ${unit ?? 'items'}/s${eta}`
}
