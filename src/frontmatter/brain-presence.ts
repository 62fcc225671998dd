import { existsSync } from 'node:fs'
import type { Config } from '../config/index.js'
import { ConfigError } from '../errors/index.js'

/** A brain exists when a server URL is configured or the embedded data directory has been created. */
export function brainIsConfigured(config: Config): boolean {
  return (config.engine.kind === 'postgres' && config.engine.url !== null) || existsSync(config.engine.dataDir)
}

/** Commands that read sources refuse to create an empty brain as a side effect. */
export function requireConfiguredBrain(config: Config, command: string): void {
  if (brainIsConfigured(config)) return
  throw new ConfigError('no_brain_configured', `No brain is configured in ${config.home}, so \`${command}\` has no sources to read.`, {
    hint: 'Initialize one with `brain init` (or `brain init --url <postgres-url>`), then add sources with `brain sources add`.',
  })
}
