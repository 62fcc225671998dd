import { join } from 'node:path'
import { ConfigError } from '../errors/index.js'
import { parseDurationMs } from './durations.js'
import { parseSizeBytes } from './sizes.js'
import { parseFlag, parseToggleOff, processEnv, type BrainEnv } from './env.js'
import { readFileConfig, remoteOf, type FileConfig, type RemoteBrain } from './file-config.js'
import { brainHome } from './home.js'

export { brainHome }

/** Which database to open and how: defined by the database seam, chosen here. */
export type { EngineConfig } from '../db/index.js'
import type { EngineConfig } from '../db/index.js'

export interface EmbeddingConfig {
  provider: 'openai' | 'local'
  openaiApiKey: string | null
  openaiBaseUrl: string | null
  openaiModel: string | null
}

/** OAuth 2.1 on `serve --http`. */
interface OAuthConfig {
  /** Dynamic client registration at /register (BRAIN_OAUTH_REGISTRATION=0 or config.json oauth.registration=false turns it off). */
  registration: boolean
  /**
   * The server's public base URL (BRAIN_HTTP_PUBLIC_URL): the issuer and the audience of its
   * tokens. Unset: taken from each request's Host header.
   */
  publicUrl: string | null
  /** Lifetime of access tokens (BRAIN_OAUTH_ACCESS_TTL, default 1 h). */
  accessTtlMs: number
  /** Lifetime of refresh tokens (BRAIN_OAUTH_REFRESH_TTL, default 30 days). */
  refreshTtlMs: number
}

/** Where `brain models pull` downloads from unless BRAIN_MODEL_HUB or HF_ENDPOINT names another. */
const DEFAULT_MODEL_HUB = 'https://huggingface.co'

export interface Config {
  home: string
  engine: EngineConfig
  embedding: EmbeddingConfig
  search: {
    /** Raw BRAIN_SEARCH_EXCLUDE (comma-separated slug prefixes). */
    excludeRaw: string | null
    /** Raw BRAIN_SOURCE_BOOST (comma-separated `prefix:factor`). */
    sourceBoostRaw: string | null
    /** BRAIN_SEARCH_GRAPH_BOOST=1 turns graph-aware ranking on by default. */
    graphBoost: boolean
  }
  import: { maxFencesPerPage: number }
  /** `capture --url`: the most bytes read of a response (BRAIN_FETCH_MAX_BYTES) and the time it may take. */
  fetch: { maxBytes: number; timeoutMs: number }
  /** `brain models pull`: the model hub's base URL (BRAIN_MODEL_HUB, else HF_ENDPOINT, else the public hub). */
  models: { hubUrl: string }
  jobs: { allowShell: boolean }
  /**
   * The chat model `brain ask` answers with: the key from BRAIN_LLM_API_KEY, else OPENAI_API_KEY
   * (never stored in the brain); the URL and model are the `llm.url` and `llm.model` config keys.
   */
  llm: { apiKey: string | null; timeoutMs: number }
  /** The resident service: it exits after this long with no client and no running job (0: never). */
  service: { idleTimeoutMs: number }
  http: {
    maxBodyBytes: number
    ingestMaxBytes: number
    /** The cap of a document body (PDF, docx, chat export) on /ingest; text keeps ingestMaxBytes. */
    ingestMaxDocumentBytes: number
    corsOrigins: string[]
    trustProxy: boolean
    /** Slug prefixes remote (HTTP) writes may use: BRAIN_REMOTE_SLUG_PREFIXES or config.json mcp.allowed_slug_prefixes. */
    remoteSlugPrefixes: string[]
    /** Burst of the pre-auth per-IP bucket (BRAIN_HTTP_IP_BURST, default 120); refills at half of it per second. */
    ipBurst: number
    /** Burst of the per-token bucket (BRAIN_HTTP_TOKEN_BURST, default 600); refills at half of it per second. */
    tokenBurst: number
    oauth: OAuthConfig
  }
  /**
   * `mcp.tools` of config.json: the tool profile (or comma-separated tool names) `brain serve`
   * lists when no `--tools` is given; null serves the whole catalogue. Checked against the
   * catalogue by the serve command, which knows the tools.
   */
  mcp: { tools: string | null }
  /**
   * Set by `brain init --remote`: page and search commands call that server's tools, with a
   * static token, or (token null) with the OAuth sign-in kept in `credentialsFile`.
   */
  remote: RemoteBrain | null
  /**
   * The brain settings of the environment this configuration was read from (BRAIN_* and OPENAI_*
   * variables, without secrets or connection URLs): a job submitted with this configuration
   * runs with them, whichever process's worker claims it.
   */
  jobSettings: Record<string, string>
}

/** Never stored with a job: keys, tokens, passwords, and URLs that may embed a password. */
const SECRET_SETTING = /KEY|TOKEN|SECRET|PASSWORD|DATABASE_URL/

/** The settings of `env` that a job carries (see Config.jobSettings). */
export function jobSettingsOf(env: BrainEnv): Record<string, string> {
  const settings: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && /^(BRAIN_|OPENAI_)/.test(name) && !SECRET_SETTING.test(name)) settings[name] = value
  }
  return settings
}

/**
 * The configuration a job runs with: the worker's own environment, with the settings of the
 * command that submitted the job on top (a job submitted by `BRAIN_ALLOW_SHELL_JOBS=1 brain …`
 * may run shell commands even when the service was started without it).
 */
export function configForJob(settings: Record<string, string>): Config {
  return loadConfig({ env: { ...processEnv(), ...settings } })
}

const FIVE_MINUTES_MS = 5 * 60_000
/**
 * Free space the embedded engine keeps on its disk: PGLite writes its log in 16 MiB segments and a
 * checkpoint may have to start a new one while the old is still needed, so two segments' worth.
 */
const DEFAULT_DISK_RESERVE_BYTES = 32 * 1024 * 1024
const FIFTEEN_MINUTES_MS = 15 * 60_000

const MiB = 1024 * 1024

/**
 * The embedded engine's buffer pool, when set: at least 1 MiB (below that PostgreSQL would not
 * start) and at most 1 GiB (the pool shares the engine's WebAssembly memory, a few GiB at most,
 * with everything else it holds).
 */
function bufferPool(raw: string | undefined): { bufferPoolBytes?: number } {
  if (raw === undefined || raw.trim() === '') return {}
  const bytes = parseSizeBytes('BRAIN_BUFFER_POOL', raw, 0)
  if (bytes < MiB || bytes > 1024 * MiB) {
    throw new ConfigError('invalid_size', `BRAIN_BUFFER_POOL=${raw} is out of range`, { hint: 'Use a size from 1MiB to 1GiB, e.g. 16MiB; unset keeps 128MiB.' })
  }
  return { bufferPoolBytes: bytes }
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError('invalid_number', `${name}=${raw} must be a positive whole number`)
  }
  return value
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
}

function oauthConfig(env: BrainEnv, file: FileConfig): OAuthConfig {
  const rawUrl = env.BRAIN_HTTP_PUBLIC_URL?.trim() || file.oauth?.public_url || null
  let publicUrl: string | null = null
  if (rawUrl) {
    let parsed: URL
    try {
      parsed = new URL(rawUrl)
    } catch {
      throw new ConfigError('invalid_public_url', `BRAIN_HTTP_PUBLIC_URL=${rawUrl} is not a URL`, { hint: 'Use the origin clients reach, such as https://brain.example.com.' })
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new ConfigError('invalid_public_url', `BRAIN_HTTP_PUBLIC_URL=${rawUrl} is not an http(s) URL`, { hint: 'Use the origin clients reach, such as https://brain.example.com.' })
    }
    publicUrl = parsed.origin
  }
  const registrationOff = env.BRAIN_OAUTH_REGISTRATION !== undefined ? parseToggleOff(env.BRAIN_OAUTH_REGISTRATION) : file.oauth?.registration === false
  return {
    registration: !registrationOff,
    publicUrl,
    accessTtlMs: parseDurationMs('BRAIN_OAUTH_ACCESS_TTL', env.BRAIN_OAUTH_ACCESS_TTL, 3_600_000) || 3_600_000,
    refreshTtlMs: parseDurationMs('BRAIN_OAUTH_REFRESH_TTL', env.BRAIN_OAUTH_REFRESH_TTL, 30 * 24 * 3_600_000) || 30 * 24 * 3_600_000,
  }
}

function mcpToolsConfig(file: FileConfig): string | null {
  const raw: unknown = file.mcp?.tools
  if (raw === undefined || raw === null) return null
  if (typeof raw === 'string') return raw
  if (Array.isArray(raw) && raw.every((name) => typeof name === 'string')) return raw.join(',')
  throw new ConfigError('invalid_mcp_tools', 'mcp.tools in config.json must be a profile name or tool names (a string or a list of strings).', {
    hint: 'For example "mcp": {"tools": "memory"} or "mcp": {"tools": ["search", "get_page"]}.',
  })
}

interface LoadConfigOptions {
  env?: BrainEnv
  /** Set by `--no-retry-connect`. */
  noRetryConnect?: boolean
}

/** Reads environment, then `$BRAIN_HOME/config.json`; the environment wins. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? processEnv()
  const home = brainHome(env)
  const file = readFileConfig(home)
  const url = env.BRAIN_DATABASE_URL?.trim() || (file.engine === 'postgres' ? (file.database_url ?? null) : null)
  const openaiApiKey = env.OPENAI_API_KEY?.trim() || file.embedding?.openai_api_key || null
  const requestedProvider = env.BRAIN_EMBEDDING_PROVIDER?.trim() || file.embedding?.provider
  if (requestedProvider !== undefined && requestedProvider !== 'openai' && requestedProvider !== 'local') {
    throw new ConfigError('invalid_embedding_provider', `Unknown embedding provider "${requestedProvider}"`, {
      hint: 'Use openai or local.',
    })
  }
  return {
    jobSettings: jobSettingsOf(env),
    home,
    engine: {
      kind: url ? 'postgres' : 'pglite',
      dataDir: join(home, 'db'),
      url,
      statementTimeoutMs: parseDurationMs('BRAIN_STATEMENT_TIMEOUT', env.BRAIN_STATEMENT_TIMEOUT, FIVE_MINUTES_MS),
      idleTxTimeoutMs: parseDurationMs('BRAIN_IDLE_TX_TIMEOUT', env.BRAIN_IDLE_TX_TIMEOUT, FIVE_MINUTES_MS),
      clientCheckIntervalMs: parseDurationMs('BRAIN_CLIENT_CHECK_INTERVAL', env.BRAIN_CLIENT_CHECK_INTERVAL, 0),
      retryConnect: !(options.noRetryConnect || parseFlag(env.BRAIN_NO_RETRY_CONNECT)),
      diskReserveBytes: parseSizeBytes('BRAIN_DISK_RESERVE', env.BRAIN_DISK_RESERVE ?? (file.disk?.reserve === undefined ? undefined : String(file.disk.reserve)), DEFAULT_DISK_RESERVE_BYTES),
      ...bufferPool(env.BRAIN_BUFFER_POOL ?? (file.memory?.buffer_pool === undefined ? undefined : String(file.memory.buffer_pool))),
    },
    embedding: {
      provider: requestedProvider ?? (openaiApiKey ? 'openai' : 'local'),
      openaiApiKey,
      openaiBaseUrl: env.OPENAI_BASE_URL?.trim() || file.embedding?.openai_base_url || null,
      openaiModel: env.BRAIN_EMBEDDING_MODEL?.trim() || file.embedding?.openai_model || null,
    },
    search: {
      excludeRaw: env.BRAIN_SEARCH_EXCLUDE ?? null,
      sourceBoostRaw: env.BRAIN_SOURCE_BOOST ?? null,
      graphBoost: env.BRAIN_SEARCH_GRAPH_BOOST === '1',
    },
    import: { maxFencesPerPage: positiveInt('BRAIN_MAX_FENCES_PER_PAGE', env.BRAIN_MAX_FENCES_PER_PAGE, 100) },
    fetch: {
      maxBytes: positiveInt('BRAIN_FETCH_MAX_BYTES', env.BRAIN_FETCH_MAX_BYTES, 10 * 1024 * 1024),
      timeoutMs: positiveInt('BRAIN_FETCH_TIMEOUT_MS', env.BRAIN_FETCH_TIMEOUT_MS, 10_000),
    },
    models: { hubUrl: env.BRAIN_MODEL_HUB?.trim() || env.HF_ENDPOINT?.trim() || DEFAULT_MODEL_HUB },
    jobs: { allowShell: env.BRAIN_ALLOW_SHELL_JOBS === '1' },
    llm: {
      apiKey: env.BRAIN_LLM_API_KEY?.trim() || env.OPENAI_API_KEY?.trim() || null,
      timeoutMs: parseDurationMs('BRAIN_LLM_TIMEOUT', env.BRAIN_LLM_TIMEOUT, 120_000) || 120_000,
    },
    service: {
      idleTimeoutMs: parseDurationMs(
        'BRAIN_SERVICE_IDLE_TIMEOUT',
        env.BRAIN_SERVICE_IDLE_TIMEOUT ?? (file.service?.idle_timeout === undefined ? undefined : String(file.service.idle_timeout)),
        FIFTEEN_MINUTES_MS,
      ),
    },
    http: {
      maxBodyBytes: positiveInt('BRAIN_HTTP_MAX_BODY_BYTES', env.BRAIN_HTTP_MAX_BODY_BYTES, 1024 * 1024),
      ingestMaxBytes: positiveInt('BRAIN_INGEST_MAX_BYTES', env.BRAIN_INGEST_MAX_BYTES, 1_000_000),
      ingestMaxDocumentBytes: positiveInt('BRAIN_INGEST_MAX_DOCUMENT_BYTES', env.BRAIN_INGEST_MAX_DOCUMENT_BYTES, 10_000_000),
      corsOrigins: list(env.BRAIN_HTTP_CORS_ORIGIN),
      trustProxy: env.BRAIN_HTTP_TRUST_PROXY === '1',
      ipBurst: positiveInt('BRAIN_HTTP_IP_BURST', env.BRAIN_HTTP_IP_BURST, 120),
      tokenBurst: positiveInt('BRAIN_HTTP_TOKEN_BURST', env.BRAIN_HTTP_TOKEN_BURST, 600),
      oauth: oauthConfig(env, file),
      remoteSlugPrefixes: env.BRAIN_REMOTE_SLUG_PREFIXES !== undefined ? list(env.BRAIN_REMOTE_SLUG_PREFIXES) : (file.mcp?.allowed_slug_prefixes ?? []),
    },
    mcp: { tools: mcpToolsConfig(file) },
    remote: remoteOf(file, home),
  }
}
