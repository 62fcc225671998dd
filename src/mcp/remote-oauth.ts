import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { ConfigError, ProviderError } from '../errors/index.js'

/** What a thin client keeps of its OAuth sign-in, in a file only its owner can read. */
interface StoredCredentials {
  server: string
  redirect_url: string
  client_information?: OAuthClientInformationMixed
  tokens?: OAuthTokens
}

function writePrivate(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, path)
}

const SIGN_IN_AGAIN = (server: string) => `brain init --remote ${new URL(server).origin}`

/**
 * The SDK's client-side OAuth provider over `$BRAIN_HOME/oauth.json` (mode 0600): the client
 * registration, the tokens (the refresh token included) and the PKCE verifier of a sign-in in
 * progress. Used by the sign-in (interactive) and by every later call (which may only refresh:
 * a new authorization needs the owner, so it is an error that says to sign in again).
 */
export class FileOAuthProvider implements OAuthClientProvider {
  private verifier = ''
  private expectedState: string | null = null

  constructor(
    private readonly path: string,
    private stored: StoredCredentials,
    private readonly onAuthorizationUrl: ((url: URL) => void) | null,
  ) {}

  static load(path: string): FileOAuthProvider {
    if (!existsSync(path)) throw new ConfigError('remote_not_signed_in', 'This thin client has no OAuth sign-in.', { hint: 'Run `brain init --remote <url>` to sign in.' })
    return new FileOAuthProvider(path, JSON.parse(readFileSync(path, 'utf8')) as StoredCredentials, null)
  }

  get redirectUrl(): string {
    return this.stored.redirect_url
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'brain thin client',
      redirect_uris: [this.stored.redirect_url],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }
  }

  state(): string {
    this.expectedState = randomState()
    return this.expectedState
  }

  get pendingState(): string | null {
    return this.expectedState
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.stored.client_information
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.stored = { ...this.stored, client_information: info }
    writePrivate(this.path, this.stored)
  }

  tokens(): OAuthTokens | undefined {
    return this.stored.tokens
  }

  saveTokens(tokens: OAuthTokens): void {
    this.stored = { ...this.stored, tokens }
    writePrivate(this.path, this.stored)
  }

  redirectToAuthorization(url: URL): void {
    if (!this.onAuthorizationUrl) {
      throw new ConfigError('remote_sign_in_expired', `The sign-in to ${new URL(this.stored.server).origin} has expired or was revoked.`, {
        hint: `Sign in again: \`${SIGN_IN_AGAIN(this.stored.server)}\`.`,
      })
    }
    this.onAuthorizationUrl(url)
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    return this.verifier
  }
}

function randomState(): string {
  return randomBytes(16).toString('base64url')
}

/** Opens the address in the desktop's browser when there is one; the address is printed either way. */
function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true })
    child.on('error', () => undefined)
    child.unref()
  } catch {
    // No browser here: the printed address is enough.
  }
}

const CALLBACK_PAGE = '<!doctype html><meta charset="utf-8"><title>brain</title><p>Signed in. You can close this tab and return to the terminal.</p>'

/** Listens on a loopback port for the one redirect that carries the code (RFC 8252 §7.3). */
async function listenForRedirect(): Promise<{ server: Server; redirectUrl: string; redirect: Promise<URLSearchParams> }> {
  let deliver!: (params: URLSearchParams) => void
  const redirect = new Promise<URLSearchParams>((resolve) => (deliver = resolve))
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname !== '/callback') {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(CALLBACK_PAGE)
    deliver(url.searchParams)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return { server, redirectUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, redirect }
}

/** How long the sign-in waits for the owner to approve in the browser. */
const SIGN_IN_TIMEOUT_MS = 10 * 60_000

interface SignInOptions {
  /** Told the consent page's address (printed for the person at the terminal). */
  onAuthorizationUrl: (url: string) => void
  /** Also try to open the address in a browser. */
  openBrowser: boolean
}

/**
 * Signs this thin client in to a remote brain through the browser: registers a public client
 * with a loopback redirect, sends the owner to the consent page, waits for the code, exchanges
 * it with PKCE, and keeps client and tokens in `path` (mode 0600).
 */
export async function signInWithBrowser(endpoint: URL, path: string, options: SignInOptions): Promise<void> {
  const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js')
  const { server, redirectUrl, redirect } = await listenForRedirect()
  let timer: NodeJS.Timeout | undefined
  try {
    const provider = new FileOAuthProvider(path, { server: endpoint.toString(), redirect_url: redirectUrl }, (url) => {
      options.onAuthorizationUrl(url.toString())
      if (options.openBrowser) openBrowser(url.toString())
    })
    const started = await auth(provider, { serverUrl: endpoint })
    if (started === 'AUTHORIZED') return
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ProviderError('remote_sign_in_timeout', 'Nobody approved the sign-in within 10 minutes.', { hint: 'Run the command again and approve on the consent page.' })),
        SIGN_IN_TIMEOUT_MS,
      )
    })
    const params = await Promise.race([redirect, timeout])
    if (params.get('error')) {
      throw new ConfigError('remote_sign_in_refused', `The remote brain refused the sign-in: ${params.get('error')} (${params.get('error_description') ?? 'no description'}).`, {
        hint: 'Approve on the consent page with an owner token (`brain auth create owner --scopes admin` on the server).',
      })
    }
    if (params.get('state') !== provider.pendingState || !params.get('code')) {
      throw new ConfigError('remote_sign_in_refused', "The redirect did not carry this sign-in's state.", { hint: 'Run the command again.' })
    }
    await auth(provider, { serverUrl: endpoint, authorizationCode: params.get('code')! })
  } finally {
    clearTimeout(timer)
    server.close()
    server.closeAllConnections()
  }
}
