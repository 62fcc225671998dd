import type { TokenScope } from '../auth/index.js'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import type { JobProgress } from '../queue/index.js'
import type { Logger } from '../util/index.js'

export interface Brain {
  db: Database
  config: Config
}

/**
 * What every tool receives, whichever transport called it. The brain is opened on demand, so a
 * server answers `initialize` and `tools/list` even while the database is unreachable.
 */
export interface CallContext {
  brain(): Promise<Brain>
  /** The configuration without opening the database, for an operation that reports on a database that may not open. */
  config?: () => Promise<Config>
  logger: Logger
  dryRun: boolean
  /** True for HTTP calls: writes run untrusted (provenance mcp:put_page, slug allowlist, no disk write-through outside it). */
  remote: boolean
  /** Scopes of the calling token; null for local callers, who may do everything. */
  scopes: readonly TokenScope[] | null
  /** Slug prefixes a remote caller may write (BRAIN_REMOTE_SLUG_PREFIXES). */
  remoteSlugPrefixes: readonly string[]
  /** Receives a generated answer's text as it arrives (a terminal); absent where results go whole. */
  onText?: (text: string) => void
  /** Receives the progress of a job the operation waits for (a terminal); absent where nobody watches. */
  onProgress?: (progress: JobProgress) => void
  /** Fires when the caller goes away: an operation that waits for a job stops waiting (the job stays queued). */
  signal?: AbortSignal
  /**
   * The one source a calling token is limited to (HTTP); null or absent for every source. Such a
   * token reaches only source-scoped operations, and only with this source.
   */
  sourceLimit?: string | null
  /** A local caller's working directory and environment (the CLI's, in the service too); absent over MCP and HTTP. */
  local?: { cwd: string; env: Readonly<Record<string, string | undefined>> }
  /** The name of the calling token (HTTP); recorded as who wrote a page. */
  caller?: string | null
}
