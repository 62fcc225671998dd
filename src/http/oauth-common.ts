import type { ServerResponse } from 'node:http'
import { OAuthError } from '../oauth/index.js'
import { writeAudit } from './audit.js'
import { readBodyCapped } from './body.js'
import type { RouteRequest } from './types.js'

/** OAuth endpoints take small forms and JSON documents; anything larger is not a client of ours. */
const OAUTH_BODY_MAX_BYTES = 64 * 1024

const HOST_HEADER = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/

/**
 * This server's public origin: the issuer of its tokens and their audience. BRAIN_HTTP_PUBLIC_URL
 * when set (behind a proxy, always set it); otherwise the Host the client reached, over https
 * only when a trusted proxy says so.
 */
export function publicBase(request: RouteRequest): string {
  const configured = request.deps.config.http.oauth.publicUrl
  if (configured) return configured
  const host = request.req.headers.host
  const safeHost = host !== undefined && HOST_HEADER.test(host) ? host.toLowerCase() : '127.0.0.1'
  const forwarded = request.req.headers['x-forwarded-proto']
  const https = request.deps.config.http.trustProxy && (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() === 'https'
  return `${https ? 'https' : 'http'}://${safeHost}`
}

function resourceMetadataUrl(request: RouteRequest): string {
  return `${publicBase(request)}/.well-known/oauth-protected-resource`
}

/** The challenge of a 401 or 403 from a protected route (RFC 6750 §3, RFC 9728 §5.1). */
export function bearerChallenge(request: RouteRequest, extra: Record<string, string> = {}): string {
  const params = { realm: 'brain', resource_metadata: resourceMetadataUrl(request), ...extra }
  return (
    'Bearer ' +
    Object.entries(params)
      .map(([k, v]) => `${k}="${v.replace(/["\\]/g, '')}"`)
      .join(', ')
  )
}

/** A JSON answer that no cache may keep (RFC 6749 §5.1). */
export function sendOAuthJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end()
    return
  }
  const text = JSON.stringify(body)
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Content-Length': String(Buffer.byteLength(text)) })
  res.end(text)
}

/** Reads the capped body of an OAuth endpoint; a larger or aborted body is an invalid request. */
export async function readOAuthBody(request: RouteRequest): Promise<Buffer> {
  const body = await readBodyCapped(request.req, OAUTH_BODY_MAX_BYTES)
  if (!body.ok)
    throw new OAuthError(
      'invalid_request',
      body.reason === 'too_large' ? `The body is larger than ${OAUTH_BODY_MAX_BYTES} bytes.` : 'The request was aborted.',
      body.reason === 'too_large' ? 413 : 400,
    )
  return body.body
}

/** An `application/x-www-form-urlencoded` body; a parameter given twice is an invalid request (RFC 6749 §3.1). */
export async function readForm(request: RouteRequest): Promise<URLSearchParams> {
  const type = String(request.req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') {
    request.req.resume()
    throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded.')
  }
  const form = new URLSearchParams((await readOAuthBody(request)).toString('utf8'))
  const seen = new Set<string>()
  for (const key of form.keys()) {
    if (seen.has(key)) throw new OAuthError('invalid_request', `Parameter ${key} is given more than once.`)
    seen.add(key)
  }
  return form
}

/** The pre-auth per-IP bucket the MCP route uses: the OAuth endpoints share it. */
export function takeIpBucket(request: RouteRequest): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  return request.deps.ipBuckets.take(request.clientIp)
}

interface OAuthAuditFields {
  route: string
  /** What happened: the grant type, `register`, `consent`, `revoke`. */
  method: string | null
  status: number
  errorCode: string | null
  oauthClientId: string | null
  started: number
}

export function auditOAuth(request: RouteRequest, fields: OAuthAuditFields): Promise<void> {
  return writeAudit(
    request.deps.db,
    {
      tokenId: null,
      clientIp: request.clientIp,
      route: fields.route,
      method: fields.method,
      toolName: null,
      status: fields.status,
      errorCode: fields.errorCode,
      durationMs: performance.now() - fields.started,
      oauthClientId: fields.oauthClientId,
    },
    request.deps.logger,
  )
}

/** Paths of this server that a `resource` indicator may name; all mean this one audience. */
const RESOURCE_PATHS = new Set(['/', '/mcp', '/ingest'])

/**
 * The audience a token is requested for (RFC 8707): this server's origin, or one of its
 * protected paths, which all resolve to the origin. Anything else is another resource.
 */
export function resolveResource(request: RouteRequest, raw: string | null | undefined): string {
  const base = publicBase(request)
  if (raw === null || raw === undefined || raw === '') return base
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OAuthError('invalid_target', `resource ${raw} is not an absolute URL.`)
  }
  if (url.origin !== base || url.hash !== '' || url.search !== '' || !RESOURCE_PATHS.has(url.pathname)) {
    throw new OAuthError('invalid_target', `This server issues tokens for ${base} only, not for ${raw}.`)
  }
  return base
}
