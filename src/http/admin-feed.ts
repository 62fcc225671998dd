import type { ServerResponse } from 'node:http'
import { hasScope, type TokenScope } from '../auth/index.js'
import { verifyAnyBearer } from '../oauth/index.js'
import { bearerChallenge, publicBase } from './oauth-common.js'
import { writeAudit } from './audit.js'
import { sendJson } from './respond.js'
import type { Route } from './types.js'

/**
 * One accepted `/ingest` request, as broadcast on the admin feed (`event: ingest`). The content
 * itself is never broadcast, only its size and hash.
 */
interface IngestFeedEvent {
  job_id: string
  /** True when the request matched an earlier job (same client, same content). */
  duplicate: boolean
  client_id: string
  token_name: string
  client_ip: string
  content_type: string
  content_hash: string
  bytes: number
  source_id: string
  source_uri: string | null
  slug: string | null
  received_at: string
}

type Listener = (event: IngestFeedEvent, id: number) => void

/** In-process broadcaster behind `GET /admin/events`. */
export class AdminFeed {
  private readonly listeners = new Set<Listener>()
  private sequence = 0

  get subscribers(): number {
    return this.listeners.size
  }

  publish(event: IngestFeedEvent): void {
    const id = ++this.sequence
    for (const listener of this.listeners) listener(event, id)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

const HEARTBEAT_MS = 15_000
const ADMIN_SCOPE: TokenScope = 'admin'

function stream(res: ServerResponse, feed: AdminFeed, onClose: () => void): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' })
  res.write(': brain admin feed\n\n')
  const unsubscribe = feed.subscribe((event, id) => res.write(`id: ${id}\nevent: ingest\ndata: ${JSON.stringify(event)}\n\n`))
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS)
  heartbeat.unref()
  res.on('close', () => {
    clearInterval(heartbeat)
    unsubscribe()
    onClose()
  })
}

/**
 * `GET /admin/events`: server-sent events for operators, one `ingest` event per accepted
 * `/ingest` request. Needs a bearer token with the `admin` scope (401 without credentials, 403
 * without the scope). The handler returns once the stream is open, so graceful shutdown does
 * not wait for listeners; closing the server ends their streams.
 */
export function adminEventsRoute(feed: AdminFeed): Route {
  return {
    method: 'GET',
    path: '/admin/events',
    async handle(request) {
      const { req, res, deps, clientIp } = request
      const started = performance.now()
      const bearer = await verifyAnyBearer(deps.db, req.headers.authorization, publicBase(request))
      const status = !bearer.ok ? 401 : hasScope(bearer.token, ADMIN_SCOPE) ? 200 : 403
      await writeAudit(
        deps.db,
        {
          tokenId: bearer.ok ? bearer.token.tokenId : null,
          clientIp,
          route: '/admin/events',
          method: 'GET',
          toolName: null,
          status,
          errorCode: bearer.ok ? (status === 200 ? null : 'forbidden') : `unauthorized_${bearer.reason}`,
          durationMs: performance.now() - started,
          oauthClientId: bearer.ok ? bearer.token.oauthClientId : null,
        },
        deps.logger,
      )
      if (!bearer.ok)
        sendJson(res, 401, { error: 'unauthorized', reason: bearer.reason }, { 'WWW-Authenticate': bearerChallenge(request, bearer.reason === 'missing' ? {} : { error: 'invalid_token' }) })
      else if (status === 403) sendJson(res, 403, { error: 'forbidden', hint: 'The admin feed needs a token with the admin scope: brain auth create <name> --scopes admin.' })
      else stream(res, feed, () => undefined)
    },
  }
}
