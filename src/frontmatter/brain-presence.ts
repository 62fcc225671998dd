import { existsSync } from 'node:fs'
import { configFilePath, type Config } from '../config/index.js'
import { usesServer, type SqlExecutor } from '../db/index.js'
import { ConfigError } from '../errors/index.js'

/**
 * Whether a brain may exist here, judged from files alone: a server URL, the config file
 * `brain init` writes, or an embedded data directory. False means opening would create one.
 */
export function brainIsConfigured(config: Config): boolean {
  return usesServer(config.engine) || existsSync(configFilePath(config.home)) || existsSync(config.engine.dataDir)
}

/**
 * Whether a brain is really there. An embedded data directory nobody initialized may be one
 * the resident service created when it started; it counts once it holds a page or a source.
 */
export async function brainIsInUse(config: Config, db: SqlExecutor): Promise<boolean> {
  if (usesServer(config.engine) || existsSync(configFilePath(config.home))) return true
  const { rows } = await db.query<{ used: boolean }>(`SELECT EXISTS (SELECT 1 FROM pages) OR EXISTS (SELECT 1 FROM sources WHERE local_path IS NOT NULL) AS used`)
  return rows[0]?.used === true
}

export function noBrainError(config: Config, command: string): ConfigError {
  return new ConfigError('no_brain_configured', `No brain is configured in ${config.home}, so \`${command}\` has nothing to read.`, {
    hint: 'Initialize one with `brain init` (or `brain init --url <postgres-url>`), then add sources with `brain sources add`.',
  })
}

/** Commands that read sources refuse to create an empty brain as a side effect. */
export function requireConfiguredBrain(config: Config, command: string): void {
  if (!brainIsConfigured(config)) throw noBrainError(config, command)
}
