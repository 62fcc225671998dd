/**
 * The one place that reads process.env. Everything else receives a BrainEnv or a Config.
 */
export type BrainEnv = Readonly<Record<string, string | undefined>>

export function processEnv(): BrainEnv {
  return process.env
}

/** `0`, `off`, `false`, `no` (any case) turn a feature off; empty means unset. */
export function parseToggleOff(value: string | undefined): boolean {
  if (value === undefined) return false
  return ['0', 'off', 'false', 'no'].includes(value.trim().toLowerCase())
}

export function parseFlag(value: string | undefined): boolean {
  if (value === undefined) return false
  return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase())
}
