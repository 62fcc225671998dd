import { ConfigError } from '../errors/index.js'

const UNITS_BYTES: Record<string, number> = { b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 }

/**
 * Parses a size such as `32`, `32MiB`, `512KiB` or `1GiB` into bytes. A bare number is MiB
 * (disk reserves are sized in MiB); `0` or `off` gives 0.
 */
export function parseSizeBytes(name: string, raw: string | undefined, defaultBytes: number): number {
  if (raw === undefined || raw.trim() === '') return defaultBytes
  const text = raw.trim().toLowerCase()
  if (text === 'off' || text === '0') return 0
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/.exec(text)
  const unit = match?.[2] ?? 'mib'
  if (!match || UNITS_BYTES[unit] === undefined) {
    throw new ConfigError('invalid_size', `${name}=${raw} is not a size`, { hint: 'Use MiB (32) or a unit: 512KiB, 32MiB, 1GiB; 0 or off disables.' })
  }
  return Math.round(Number(match[1]) * UNITS_BYTES[unit]!)
}
