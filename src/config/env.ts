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

/**
 * A private, offline brain sends nothing anywhere and writes nothing outside BRAIN_HOME. The ONNX
 * runtime behind the local model otherwise keeps a telemetry queue and a device id under
 * `~/.cache/Microsoft/`; it reads this switch from the process environment when its first session
 * is created, so it is set before the runtime is loaded (and is inherited by child processes).
 */
export function disableRuntimeTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = '1'
}
