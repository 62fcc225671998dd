import { ConfigError } from '../errors/index.js'

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/**
 * Parses a duration such as `300000`, `30s`, `5min`, `2h` or `30d` into milliseconds.
 * A bare number is milliseconds, as PostgreSQL reads it for timeouts.
 * Returns 0 for `0`/`off` so callers can disable the timeout.
 */
export function parseDurationMs(name: string, raw: string | undefined, defaultMs: number): number {
  if (raw === undefined || raw.trim() === '') return defaultMs
  const text = raw.trim().toLowerCase()
  if (text === 'off' || text === '0') return 0
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|m|h|d|w)?$/.exec(text)
  if (!match) {
    throw new ConfigError('invalid_duration', `${name}=${raw} is not a duration`, {
      hint: `Use milliseconds (300000) or a unit: 30s, 5min, 2h, 30d; 0 or off disables.`,
    })
  }
  const unit = match[2] ?? 'ms'
  return Math.round(Number(match[1]) * UNITS_MS[unit]!)
}
