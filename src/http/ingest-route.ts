import { hasScope, type VerifiedToken } from '../auth/index.js'
import { verifyAnyBearer } from '../oauth/index.js'
import { bearerChallenge, publicBase } from './oauth-common.js'
import { BrainError, serializeError } from '../errors/index.js'
import { writeAudit } from './audit.js'
import { readBodyCapped } from './body.js'
import { sendJson } from './respond.js'
import { TokenBucketLru } from './token-bucket.js'
import type { Route, RouteRequest } from './types.js'
import { normalizeSlug } from '../pages/slug.js'
import { findJobIdByKey, openQueue } from '../queue/index.js'
import { AdminFeed, adminEventsRoute } from './admin-feed.js'
import { countWaitingIngestJobs, submitIngestCapture } from '../intake/ingestion/dispatch.js'
import { classifyContentType, computeContentHash, isDocumentContentType, PROCESSOR_HINT, validateIngestionEvent, type IngestionEvent } from '../intake/ingestion/event.js'

/** Waiting `ingest_capture` jobs one client may have before further submissions are refused. */
const INGEST_BACKLOG_PER_CLIENT = 50
/** 100 events per 10 s per client IP. */
const INGEST_RATE = { capacity: 100, refillPerSecond: 10 }

interface Outcome {
  status: number
  errorCode: string | null
  tokenId: number | null
  oauthClientId?: string | null
  /** Writes the answer; called after the audit row, so no client sees an unaudited reply. */
  send(): void
}

function header(request: RouteRequest, name: string): string | undefined {
  const value = request.req.headers[name]
  const single = Array.isArray(value) ? value[0] : value
  return single === undefined || single.trim() === '' ? undefined : single.trim()
}

function answer(request: RouteRequest, status: number, body: Record<string, unknown>, tokenId: number | null, headers: Record<string, string> = {}): Outcome {
  return { status, errorCode: status < 400 ? null : String(body.error), tokenId, send: () => sendJson(request.res, status, body, headers) }
}

function refuse(request: RouteRequest, status: number, body: Record<string, unknown>, tokenId: number | null, headers: Record<string, string> = {}): Outcome {
  request.req.resume()
  return answer(request, status, body, tokenId, headers)
}

async function authorize(request: RouteRequest): Promise<VerifiedToken | Outcome> {
  const bearer = await verifyAnyBearer(request.deps.db, request.req.headers.authorization, publicBase(request))
  if (!bearer.ok) {
    const challenge = bearerChallenge(request, bearer.reason === 'missing' ? { scope: 'write' } : { error: 'invalid_token', scope: 'write' })
    return refuse(request, 401, { error: 'unauthorized', reason: bearer.reason }, null, { 'WWW-Authenticate': challenge })
  }
  if (!hasScope(bearer.token, 'write')) {
    const outcome = refuse(request, 403, { error: 'insufficient_scope', hint: 'POST /ingest needs a token with the write scope.' }, bearer.token.tokenId, {
      'WWW-Authenticate': bearerChallenge(request, { error: 'insufficient_scope', scope: 'write' }),
    })
    return { ...outcome, oauthClientId: bearer.token.oauthClientId }
  }
  return bearer.token
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

interface IngestRouteOptions {
  feed: AdminFeed
  /** Clock of the per-IP bucket (tests). */
  now?: () => number
}

async function accept(request: RouteRequest, token: VerifiedToken, feed: AdminFeed): Promise<Outcome> {
  const { deps, req } = request
  const tokenId = token.tokenId
  const type = classifyContentType(header(request, 'x-brain-content-type') ?? req.headers['content-type'] ?? 'text/plain')
  // Documents a converter reads (PDF, chat exports) travel base64-encoded; other binary is refused.
  const document = type.kind === 'binary' && isDocumentContentType(type.type)
  if (type.kind === 'binary' && !document) return refuse(request, 415, { error: 'unsupported_media_type', content_type: type.type, hint: PROCESSOR_HINT }, tokenId)
  // A document is bytes for a converter and may be larger than a text body; each has its own cap.
  const cap = document ? deps.config.http.ingestMaxDocumentBytes : deps.config.http.ingestMaxBytes
  const body = await readBodyCapped(req, cap)
  if (!body.ok) {
    if (body.reason === 'aborted') return { status: 499, errorCode: 'client_aborted', tokenId, send: () => request.res.destroy() }
    // Drained, not cut off, so the client reads this answer (see the /mcp route).
    const hint = document ? 'Raise BRAIN_INGEST_MAX_DOCUMENT_BYTES on the server.' : 'Raise BRAIN_INGEST_MAX_BYTES on the server, or split the content.'
    return refuse(request, 413, { error: 'body_too_large', max_bytes: cap, hint }, tokenId)
  }
  if (body.body.length === 0) return refuse(request, 400, { error: 'empty_body' }, tokenId)
  let content: string
  try {
    content = document ? body.body.toString('base64') : utf8.decode(body.body)
  } catch {
    return refuse(request, 415, { error: 'unsupported_media_type', content_type: type.type, hint: `The body is not UTF-8 text. ${PROCESSOR_HINT}` }, tokenId)
  }
  // The backlog is counted per static token, or per OAuth client across all its tokens.
  const clientId = token.oauthClientId === null ? `webhook:${tokenId}` : `webhook:oauth:${token.oauthClientId}`
  let slug: string | undefined
  let event: IngestionEvent
  try {
    const rawSlug = header(request, 'x-brain-slug')
    slug = rawSlug === undefined ? undefined : normalizeSlug(rawSlug)
    const sourceUri = header(request, 'x-brain-source-uri')
    event = validateIngestionEvent({
      ...(document ? { content_encoding: 'base64' } : {}),
      content_type: type.type,
      content,
      source_id: header(request, 'x-brain-source-id') ?? `webhook:${token.name}`,
      ...(sourceUri ? { source_uri: sourceUri } : {}),
      received_at: new Date().toISOString(),
    })
  } catch (err) {
    const envelope = serializeError(err)
    return refuse(request, 400, { error: envelope.code, message: envelope.message, hint: envelope.hint }, tokenId)
  }
  // The same allowlist as remote put_page: with prefixes configured, a caller cannot aim at any page.
  const allowed = deps.config.http.remoteSlugPrefixes
  if (slug !== undefined && allowed.length > 0 && !allowed.some((prefix) => slug!.startsWith(prefix))) {
    return refuse(request, 403, { error: 'slug_not_allowed', hint: `Allowed slug prefixes: ${allowed.join(', ')}` }, tokenId)
  }
  const contentHash = computeContentHash(event)
  const existing = await findJobIdByKey(deps.db, 'ingest_capture', `${clientId}:${contentHash}`)
  if (existing === null) {
    const waiting = await countWaitingIngestJobs(deps.db, clientId)
    if (waiting >= INGEST_BACKLOG_PER_CLIENT) {
      return refuse(
        request,
        429,
        {
          error: 'ingest_backlog_full',
          waiting,
          max_waiting: INGEST_BACKLOG_PER_CLIENT,
          hint: 'This client already has 50 ingest_capture jobs waiting; retry once workers (`brain jobs work`) have caught up.',
        },
        tokenId,
        { 'Retry-After': '10' },
      )
    }
  }
  const queue = await openQueue({ db: deps.db, config: deps.config, logger: deps.logger })
  const job = await submitIngestCapture(queue, event, { clientId, untrusted: true, idempotent: true, slug }).finally(() => queue.close())
  const duplicate = existing !== null
  const accepted = { ...answer(request, 202, { job_id: job.id, status: job.status, content_hash: contentHash, duplicate }, tokenId), oauthClientId: token.oauthClientId }
  return {
    ...accepted,
    send: () => {
      accepted.send()
      feed.publish({
        job_id: job.id,
        duplicate,
        client_id: clientId,
        token_name: token.name,
        client_ip: request.clientIp,
        content_type: event.content_type,
        content_hash: contentHash,
        bytes: body.body.length,
        source_id: event.source_id,
        source_uri: event.source_uri ?? null,
        slug: slug ?? null,
        received_at: event.received_at!,
      })
    },
  }
}

/**
 * `POST /ingest` and its admin feed. The pipeline: per-IP bucket (100 per 10 s, 429 with
 * Retry-After) → bearer token with write scope (401/403) → content type (binary 415) → capped
 * body (413) → empty (400) → backlog of 50 waiting jobs per client (429) → one idempotent
 * `ingest_capture` job (202) → audit row and feed event.
 */
export function ingestRoutes(options: IngestRouteOptions = { feed: new AdminFeed() }): Route[] {
  const buckets = new TokenBucketLru({ ...INGEST_RATE, maxKeys: 10_000, now: options.now })
  const ingest: Route = {
    method: 'POST',
    path: '/ingest',
    audited: true,
    async handle(request) {
      const started = performance.now()
      let outcome: Outcome
      try {
        const byIp = buckets.take(request.clientIp)
        if (!byIp.allowed) {
          outcome = refuse(request, 429, { error: 'rate_limited', retry_after_seconds: byIp.retryAfterSeconds }, null, { 'Retry-After': String(byIp.retryAfterSeconds) })
        } else {
          const token = await authorize(request)
          outcome = 'status' in token ? token : { oauthClientId: token.oauthClientId, ...(await accept(request, token, options.feed)) }
        }
      } catch (err) {
        request.deps.logger.error('ingest request failed', { error: err instanceof Error ? err.message : String(err) })
        const code = err instanceof BrainError ? err.code : 'unavailable'
        outcome = refuse(request, 503, { error: 'unavailable', code, hint: 'The database did not answer; try again shortly.' }, null)
      }
      await writeAudit(
        request.deps.db,
        {
          tokenId: outcome.tokenId,
          clientIp: request.clientIp,
          route: '/ingest',
          method: 'POST',
          toolName: null,
          status: outcome.status,
          errorCode: outcome.errorCode,
          durationMs: performance.now() - started,
          oauthClientId: outcome.oauthClientId ?? null,
        },
        request.deps.logger,
      )
      outcome.send()
    },
  }
  return [ingest, adminEventsRoute(options.feed)]
}
