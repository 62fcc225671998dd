import { loadConfig, oauthCredentialsFile, readFileConfig, writeFileConfig, type BrainEnv } from '../config/index.js'
import { UsageError } from '../errors/index.js'

interface RemoteInitResult {
  url: string
  home: string
  engine: unknown
  pages: unknown
}

interface RemoteSignIn {
  /** Told the consent page's address, to print it for the person at the terminal. */
  onAuthorizationUrl: (url: string) => void
  openBrowser: boolean
}

/**
 * `brain init --remote <url> --token <token>`: checks that the server answers and accepts the
 * token, then records both in $BRAIN_HOME/config.json (mode 0600). Without --token, signs in
 * through the browser (OAuth with PKCE and a loopback redirect) and keeps the client and its
 * refresh token in $BRAIN_HOME/oauth.json (mode 0600) instead.
 */
export async function initRemote(env: BrainEnv, url: string | undefined, token: string | undefined, signIn?: RemoteSignIn): Promise<RemoteInitResult & { auth: 'token' | 'oauth' }> {
  if (!url) throw new UsageError('remote_requires_url', '--token needs --remote <url>.', { hint: 'brain init --remote https://brain.example.org [--token brain_…]' })
  const { remoteEndpoint, callRemoteTool } = await import('../mcp/remote-client.js')
  const endpoint = remoteEndpoint(url)
  const home = loadConfig({ env }).home
  const credentialsFile = oauthCredentialsFile(home)
  if (token === undefined) {
    if (!signIn) throw new UsageError('remote_requires_url_and_token', 'Give --token, or sign in from a terminal.', { hint: 'brain init --remote https://brain.example.org --token brain_…' })
    const { signInWithBrowser } = await import('../mcp/remote-oauth.js')
    await signInWithBrowser(endpoint, credentialsFile, signIn)
  }
  const target = { url: endpoint.toString(), token: token ?? null, credentialsFile }
  const health = await callRemoteTool(target, 'get_health', {})
  const stats = await callRemoteTool(target, 'get_stats', {})
  writeFileConfig(home, { ...readFileConfig(home), remote: token === undefined ? { url: target.url, auth: 'oauth' } : { url: target.url, token } })
  return { url: target.url, home, engine: health.engine, pages: stats.pages, auth: token === undefined ? 'oauth' : 'token' }
}
