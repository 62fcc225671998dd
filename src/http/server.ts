import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { clientIp } from './client-ip.js'
import { writeAudit } from './audit.js'
import { applyCors } from './cors.js'
import { sendJson } from './respond.js'
import type { HttpDeps, Route } from './types.js'

export interface BrainHttpServer {
  server: Server
  listen(port: number, host: string): Promise<AddressInfo>
  /** Refuses new requests, lets the ones in flight finish, then closes every connection. */
  shutdown(): Promise<void>
  readonly inFlight: number
}

/** An HTTP server over a route table; routes are matched on method and exact path. */
export function createBrainHttpServer(routes: readonly Route[], deps: HttpDeps): BrainHttpServer {
  const pending = new Set<Promise<void>>()
  let draining = false

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now()
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (draining) {
      req.resume()
      sendJson(res, 503, { error: 'shutting_down' }, { Connection: 'close', 'Retry-After': '1' })
      return
    }
    // Browser-based MCP clients discover the authorization server before they hold any credential.
    const publicPath = routes.some((route) => route.publicCors && route.path === url.pathname)
    const cors = applyCors(req, res, publicPath ? ['*'] : deps.config.http.corsOrigins)
    if (cors === 'denied') {
      req.resume()
      // Refused before any route runs, so the refusal is logged here for the audited routes.
      if (routes.some((route) => route.audited && route.path === url.pathname)) {
        const row = {
          tokenId: null,
          clientIp: clientIp(req, deps.config.http.trustProxy),
          route: url.pathname,
          method: null,
          toolName: null,
          status: 403,
          errorCode: 'origin_not_allowed',
          durationMs: Date.now() - started,
        }
        await writeAudit(deps.db, row, deps.logger)
      }
      sendJson(res, 403, { error: 'origin_not_allowed', hint: 'List the origin in BRAIN_HTTP_CORS_ORIGIN.' })
      return
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(cors === 'allowed' ? 204 : 403)
      res.end()
      return
    }
    const samePath = routes.filter((route) => route.path === url.pathname)
    const route = samePath.find((r) => r.method === req.method)
    if (!route) {
      req.resume()
      if (samePath.length > 0) sendJson(res, 405, { error: 'method_not_allowed' }, { Allow: samePath.map((r) => r.method).join(', ') })
      else sendJson(res, 404, { error: 'not_found' })
      return
    }
    await route.handle({ req, res, url, clientIp: clientIp(req, deps.config.http.trustProxy), deps })
  }

  const server = createServer((req, res) => {
    const done = handle(req, res)
      .catch((err: unknown) => {
        deps.logger.error('request failed', { error: err instanceof Error ? err.message : String(err) })
        sendJson(res, 500, { error: 'internal_error' })
      })
      .finally(() => pending.delete(done))
    pending.add(done)
  })
  // A slow client cannot hold a connection open forever.
  server.requestTimeout = 60_000
  server.headersTimeout = 20_000

  return {
    server,
    get inFlight() {
      return pending.size
    },
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          resolve(server.address() as AddressInfo)
        })
      })
    },
    async shutdown() {
      draining = true
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      while (pending.size > 0) await Promise.allSettled([...pending])
      server.closeAllConnections()
      await closed
    },
  }
}
