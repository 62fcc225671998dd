import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from '../errors/index.js'

/** `$BRAIN_HOME/config.json`: the choices `brain init` records. */
export interface FileConfig {
  engine?: 'pglite' | 'postgres'
  database_url?: string
  embedding?: {
    provider?: 'openai' | 'local'
    openai_api_key?: string
    openai_base_url?: string
    openai_model?: string
  }
  /** `idle_timeout`: how long the resident service stays up with nothing to do (e.g. "15min", "off"). */
  service?: { idle_timeout?: string | number }
  /** `reserve`: free space the embedded engine keeps on its disk (MiB, or with a unit: "64MiB"; 0 turns the check off). */
  disk?: { reserve?: string | number }
  /** `buffer_pool`: the embedded engine's buffer pool for the service, imports and servers (MiB, or with a unit: "32MiB"). */
  memory?: { buffer_pool?: string | number }
  /** Thin-client install: commands call this brain's MCP HTTP route instead of a database. */
  /** `token` for a static access token; `auth: "oauth"` when signed in through the browser (credentials in oauth.json). */
  remote?: { url: string; token?: string; auth?: 'oauth' }
  /** `tools`: the tool profile `brain serve` lists when `--tools` is not given (a profile, or tool names). */
  mcp?: { allowed_slug_prefixes?: string[]; tools?: string | string[] }
  /** OAuth on `serve --http`: `registration: false` turns dynamic client registration off. */
  oauth?: { registration?: boolean; public_url?: string }
}

/** Where a thin client signed in with OAuth keeps its client and tokens (mode 0600). */
export function oauthCredentialsFile(home: string): string {
  return join(home, 'oauth.json')
}

export function configFilePath(home: string): string {
  return join(home, 'config.json')
}

export function readFileConfig(home: string): FileConfig {
  let text: string
  try {
    text = readFileSync(configFilePath(home), 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw err
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
    return parsed as FileConfig
  } catch (err) {
    throw new ConfigError('config_file_invalid', `${configFilePath(home)} is not a valid JSON object`, {
      hint: 'Fix or delete the file, then run `brain init` again.',
      cause: err,
    })
  }
}

export function writeFileConfig(home: string, config: FileConfig): void {
  mkdirSync(home, { recursive: true })
  const path = configFilePath(home)
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 })
  renameSync(tmp, path)
}

/** The remote brain a thin-client home (`brain init --remote`) uses, or null for a brain of its own. */
export interface RemoteBrain {
  url: string
  token: string | null
  credentialsFile: string
}

export function remoteOf(file: FileConfig, home: string): RemoteBrain | null {
  if (!file.remote || typeof file.remote.url !== 'string') return null
  const credentialsFile = oauthCredentialsFile(home)
  if (typeof file.remote.token === 'string') return { url: file.remote.url, token: file.remote.token, credentialsFile }
  return file.remote.auth === 'oauth' ? { url: file.remote.url, token: null, credentialsFile } : null
}

/**
 * Whether this home is a thin client's: its commands call the server's tools from their own
 * process, since a local service would open a local brain nobody asked for. Light enough to be
 * read before any command module loads.
 */
export function isThinClient(home: string): boolean {
  try {
    return remoteOf(readFileConfig(home), home) !== null
  } catch {
    // A configuration the command itself reports on.
    return false
  }
}
