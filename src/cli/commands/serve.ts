import { Command, Option } from 'clipanion'
import { DatabaseError, NotAvailableError, UsageError, isBrainError } from '../../errors/index.js'
import type { Config } from '../../config/index.js'
import type { Brain, CallContext, ToolSelection } from '../../mcp/index.js'
import { BrainCommand } from '../brain-command.js'

function parsePort(raw: string | undefined): number {
  if (raw === undefined) throw new UsageError('serve_requires_port', '--http needs --port <port>.', { hint: 'brain serve --http --port 8787' })
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('invalid_port', `--port must be a whole number 0–65535, not "${raw}".`)
  return port
}

/** A database failure as a tool error an agent can act on. */
function asDatabaseProblem(err: unknown): unknown {
  if (isBrainError(err)) return err
  return new DatabaseError('database_unavailable', `The brain's database could not be opened: ${err instanceof Error ? err.message : String(err)}`, {
    hint: 'Check that the database is running and reachable (BRAIN_DATABASE_URL or `brain init`), then call the tool again.',
    cause: err,
  })
}

/**
 * The tools a session serves: `--tools` wins over `mcp.tools` in config.json; with neither, the
 * whole catalogue, as before profiles existed (agent installs ask for `--tools memory`).
 */
async function toolSelection(flag: string | undefined, config: Config | null): Promise<ToolSelection | undefined> {
  const { resolveToolSelection } = await import('../../mcp/index.js')
  if (flag !== undefined) return resolveToolSelection(flag, '--tools')
  const configured = config?.mcp.tools ?? null
  return configured === null ? undefined : resolveToolSelection(configured, 'mcp.tools in config.json')
}

export class ServeCommand extends BrainCommand {
  static override paths = [['serve']]
  static override usage = Command.Usage({
    description: 'Serve the MCP tools over stdio, or over HTTP with --http (server engine only)',
    details: [
      'Without --http: MCP over stdin/stdout for an agent host; stdout carries only the protocol, logs go to stderr. The database is opened on the first tool call that needs it.',
      "Tool profiles (--tools, or mcp.tools in config.json; the flag wins): memory (the ten tools an agent needs to recall, search, read and write notes), read (every tool that changes nothing), write (read plus the changes a non-admin token may make), admin and all (the whole catalogue, the default). A comma-separated list of tool names (and profiles) serves exactly those. A tool outside the profile is not listed and a call of it fails with tool_not_in_profile; a token's scopes still decide what a call may do.",
      'With --http: GET /health and POST /mcp (bearer token from `brain auth create`; answers application/json). Environment: BRAIN_HTTP_MAX_BODY_BYTES (default 1 MiB), BRAIN_HTTP_CORS_ORIGIN (comma-separated origins; default none), BRAIN_HTTP_TRUST_PROXY=1 (believe X-Forwarded-For), BRAIN_HTTP_IP_BURST / BRAIN_HTTP_TOKEN_BURST (rate buckets, default 120 / 600, refilled at half per second), BRAIN_REMOTE_SLUG_PREFIXES (slug prefixes remote writes may use). OAuth 2.1 for MCP clients: /.well-known/oauth-protected-resource, /.well-known/oauth-authorization-server, /register, /authorize (the owner approves with an admin-scope token), /token, /revoke; BRAIN_HTTP_PUBLIC_URL (issuer and token audience), BRAIN_OAUTH_REGISTRATION=0 (no dynamic registration), BRAIN_OAUTH_ACCESS_TTL (default 1h). SIGTERM lets requests in flight finish, then exits 0.',
    ].join('\n\n'),
    examples: [
      ['Stdio for an agent host', '$0 serve'],
      ['Only the memory tools', '$0 serve --tools memory'],
      ['HTTP on all interfaces', '$0 serve --http --port 8787 --host 0.0.0.0'],
    ],
  })

  http = Option.Boolean('--http', false, { description: 'Serve over HTTP instead of stdio' })
  port = Option.String('--port', { description: 'HTTP port' })
  host = Option.String('--host', '127.0.0.1', { description: 'HTTP address to bind (default 127.0.0.1)' })
  tools = Option.String('--tools', { description: 'Tool profile: memory, read, write, admin, all (default), or comma-separated tool names' })

  protected async run(): Promise<number> {
    return this.http ? this.serveHttp() : this.serveStdio()
  }

  private async serveStdio(): Promise<number> {
    const { runStdioSession, streamLogger } = await import('../../mcp/index.js')
    const logger = streamLogger(this.context.stderr)
    let release: () => void = () => undefined
    const ended = new Promise<void>((resolve) => (release = resolve))
    let opened: Promise<Brain> | null = null
    let holding: Promise<unknown> | null = null
    // The brain stays open from the first tool call that needs it until the session ends.
    const brain = (): Promise<Brain> => {
      opened ??= new Promise<Brain>((resolve, reject) => {
        holding = this.withBrain(async (b) => {
          resolve(b)
          await ended
        }).catch((err: unknown) => {
          opened = null
          reject(asDatabaseProblem(err))
        })
      })
      return opened
    }
    let config: Config | null = null
    try {
      config = await this.loadConfig()
    } catch (err) {
      logger.warn(`configuration problem: ${err instanceof Error ? err.message : String(err)}`)
    }
    const tools = await toolSelection(this.tools, config)
    const ctx: CallContext = { brain, logger, dryRun: false, remote: false, scopes: null, remoteSlugPrefixes: config?.http.remoteSlugPrefixes ?? [] }
    try {
      await runStdioSession({ stdin: this.context.stdin, stdout: this.context.stdout, ctx, version: this.cli.binaryVersion ?? '0.0.0', tools })
    } finally {
      release()
      await holding
    }
    return 0
  }

  /**
   * Resolves when serving should end: SIGTERM or SIGINT to this process, or, run through the
   * brain service, the client going away (Ctrl-C, a signal, a closed terminal all close it).
   */
  private stopRequested(): Promise<string> {
    return new Promise((resolve) => {
      const outer = this.context.signal
      const stop = (reason: string): void => {
        process.off('SIGTERM', onSignal)
        process.off('SIGINT', onSignal)
        outer?.removeEventListener('abort', onAbort)
        resolve(reason)
      }
      const onSignal = (name: NodeJS.Signals): void => stop(name)
      const onAbort = (): void => stop('the client ended')
      if (outer?.aborted) return stop('the client ended')
      outer?.addEventListener('abort', onAbort, { once: true })
      process.on('SIGTERM', onSignal)
      process.on('SIGINT', onSignal)
    })
  }

  private async serveHttp(): Promise<number> {
    const port = parsePort(this.port)
    const tools = await toolSelection(this.tools, await this.loadConfig())
    const { createBrainHttpServer, ROUTES, mcpBuckets } = await import('../../http/index.js')
    const { streamLogger } = await import('../../mcp/index.js')
    const logger = streamLogger(this.context.stderr)
    return this.withBrain(async ({ db, config }) => {
      if (!db.capabilities.httpServer) {
        throw new NotAvailableError('http_requires_server_engine', 'serve --http needs the server engine: the access-token table exists only on the server engine, not in the embedded brain.', {
          hint: 'Point brain at PostgreSQL (`brain init --url postgres://…` or BRAIN_DATABASE_URL), or use `brain serve` (stdio).',
        })
      }
      const http = createBrainHttpServer(ROUTES, { db, config, logger, version: this.cli.binaryVersion ?? '0.0.0', ...mcpBuckets(config.http), mcpTools: tools })
      const address = await http.listen(port, this.host)
      logger.info(`listening on http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`)
      const reason = await this.stopRequested()
      logger.info(`${reason}: finishing ${http.inFlight} request(s) in flight`)
      await http.shutdown()
      logger.info('stopped')
      return 0
    })
  }
}
