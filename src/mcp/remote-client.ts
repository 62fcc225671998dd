import { BrainError, ConfigError, ProviderError, UsageError, type ErrorEnvelope } from '../errors/index.js'

/** An error the remote brain reported, carried through with its own class, code and hint. */
class RemoteToolError extends BrainError {
  override readonly errorClass: string
  constructor(envelope: ErrorEnvelope) {
    super(envelope.code, envelope.message, { hint: envelope.hint })
    this.errorClass = envelope.class
  }
}

interface RemoteTarget {
  url: string
  /** A static access token; null: the OAuth sign-in kept in `credentialsFile`. */
  token: string | null
  credentialsFile?: string
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])
/** Long enough for a sync or an embed job the tool waits for. */
const REMOTE_CALL_TIMEOUT_MS = 30 * 60_000

/** The MCP endpoint of a remote brain: https, or http on a loopback address; `/mcp` when no path is given. */
export function remoteEndpoint(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError('invalid_remote_url', `"${raw}" is not a URL.`, { hint: 'Use the form https://brain.example.org (the /mcp path is added).' })
  }
  const loopback = LOOPBACK.has(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new UsageError('remote_requires_https', `${url.origin} is not https; tokens travel only over https (plain http only on this machine).`, {
      hint: 'Put the server behind TLS, or use an http://127.0.0.1 address.',
    })
  }
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/mcp'
  return url
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  return value !== null && typeof value === 'object' && typeof (value as ErrorEnvelope).code === 'string' && typeof (value as ErrorEnvelope).class === 'string'
}

function transportError(err: unknown, target: URL): BrainError {
  const status = (err as { code?: unknown }).code
  if (status === 401) {
    return new ConfigError('remote_unauthorized', `${target.origin} refused the access token (401).`, {
      hint: 'The token is unknown or revoked: create one on the server with `brain auth create` and run `brain init --remote <url> --token <token>`.',
    })
  }
  // The SDK's OAuth errors (a revoked client, a refresh token no longer valid) carry the protocol's errorCode.
  if (typeof (err as { errorCode?: unknown }).errorCode === 'string') {
    return new ConfigError('remote_sign_in_expired', `${target.origin} refused this client's sign-in (${(err as { errorCode: string }).errorCode}).`, {
      hint: `Sign in again: \`brain init --remote ${target.origin}\`.`,
    })
  }
  if (status === 429) return new ProviderError('remote_rate_limited', `${target.origin} is rate limiting this client (429).`, { hint: 'Wait a moment and try again.' })
  const message = err instanceof Error ? err.message : String(err)
  return new ProviderError('remote_unreachable', `The remote brain at ${target.origin} did not answer: ${message}`, {
    hint: 'Check the URL and that `brain serve --http` is running there.',
    cause: err,
  })
}

/** Calls one tool of a remote brain over MCP HTTP; a tool error is rethrown with its envelope. */
export async function callRemoteTool(target: RemoteTarget, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const endpoint = remoteEndpoint(target.url)
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js')
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js')
  const client = new Client({ name: 'brain-thin-client', version: '1' })
  let transport: InstanceType<typeof StreamableHTTPClientTransport>
  if (target.token !== null) {
    transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${target.token}` } } })
  } else {
    // The SDK refreshes an expired access token with the stored refresh token (and stores the rotated pair).
    const { FileOAuthProvider } = await import('./remote-oauth.js')
    if (!target.credentialsFile) throw new ConfigError('remote_not_signed_in', 'This thin client has no OAuth sign-in.', { hint: 'Run `brain init --remote <url>` to sign in.' })
    transport = new StreamableHTTPClientTransport(endpoint, { authProvider: FileOAuthProvider.load(target.credentialsFile) })
  }
  let result: Awaited<ReturnType<typeof client.callTool>>
  try {
    await client.connect(transport)
    result = await client.callTool({ name, arguments: args }, undefined, { timeout: REMOTE_CALL_TIMEOUT_MS })
  } catch (err) {
    if (err instanceof BrainError) throw err
    throw transportError(err, endpoint)
  } finally {
    await client.close().catch(() => undefined)
  }
  const structured = (result.structuredContent ?? {}) as Record<string, unknown>
  if (result.isError) {
    const envelope = structured.error
    if (isEnvelope(envelope)) throw new RemoteToolError(envelope)
    throw new ProviderError('remote_tool_failed', `The remote ${name} tool failed.`, { hint: 'See the server log.' })
  }
  return structured
}
