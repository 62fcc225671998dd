import type { IncomingMessage } from 'node:http'

/**
 * The client address used for the pre-auth rate bucket and the audit row. `X-Forwarded-For`
 * is believed only behind a trusted proxy (BRAIN_HTTP_TRUST_PROXY=1), which must strip what
 * clients send; otherwise anyone could pick their own bucket.
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for']
    const value = Array.isArray(header) ? header[0] : header
    const first = value?.split(',')[0]?.trim()
    if (first) return first
  }
  const remote = req.socket.remoteAddress ?? 'unknown'
  return remote.startsWith('::ffff:') ? remote.slice(7) : remote
}
