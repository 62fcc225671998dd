import type { IncomingMessage, ServerResponse } from 'node:http'

const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id'

export type CorsVerdict = 'no_origin' | 'same_origin' | 'allowed' | 'denied'

/**
 * CORS is default-deny: only origins listed in BRAIN_HTTP_CORS_ORIGIN (comma-separated, `*` for
 * any) get CORS headers. Requests without an Origin header (non-browser clients) pass, and so do
 * the web app's own requests (module scripts and fetches carry the page's Origin), which come from
 * the origin the request is addressed to.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowedOrigins: readonly string[]): CorsVerdict {
  const origin = req.headers.origin
  if (origin === undefined) return 'no_origin'
  const host = req.headers.host
  if (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)) return 'same_origin'
  if (!allowedOrigins.includes('*') && !allowedOrigins.includes(origin)) return 'denied'
  res.setHeader('Access-Control-Allow-Origin', origin)
  res.setHeader('Vary', 'Origin')
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS)
  res.setHeader('Access-Control-Max-Age', '600')
  return 'allowed'
}
