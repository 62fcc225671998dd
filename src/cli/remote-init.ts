import { loadConfig, readFileConfig, writeFileConfig, type BrainEnv } from '../config/index.js'
import { UsageError } from '../errors/index.js'

export interface RemoteInitResult {
  url: string
  home: string
  engine: unknown
  pages: unknown
}

/**
 * `brain init --remote <url> --token <token>`: checks that the server answers and accepts the
 * token, then records both in $BRAIN_HOME/config.json (mode 0600).
 */
export async function initRemote(env: BrainEnv, url: string | undefined, token: string | undefined): Promise<RemoteInitResult> {
  if (!url || !token) throw new UsageError('remote_requires_url_and_token', '--remote and --token go together.', { hint: 'brain init --remote https://brain.example.org --token brain_…' })
  const { remoteEndpoint, callRemoteTool } = await import('../mcp/remote-client.js')
  const endpoint = remoteEndpoint(url).toString()
  const health = await callRemoteTool({ url: endpoint, token }, 'get_health', {})
  const stats = await callRemoteTool({ url: endpoint, token }, 'get_stats', {})
  const home = loadConfig({ env }).home
  writeFileConfig(home, { ...readFileConfig(home), remote: { url: endpoint, token } })
  return { url: endpoint, home, engine: health.engine, pages: stats.pages }
}
