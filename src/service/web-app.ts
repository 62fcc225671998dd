import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Config } from '../config/index.js'
import type { Database } from '../db/index.js'
import type { BrainHttpServer } from '../http/server.js'
import type { UiSessions } from '../http/ui-sessions.js'
import type { Logger } from '../util/index.js'

/** The local web app a service serves on 127.0.0.1: the JSON API and the app's files. */
export interface RunningWebApp {
  base: string
  /** A fresh one-time sign-in link. */
  signInUrl(): string
  /** When it last answered a request (ms since the epoch); the service stays up while it is used. */
  readonly lastRequestAt: number
  close(): Promise<void>
}

export async function startWebApp(db: Database, config: Config, logger: Logger, options: { port: number; version: string }): Promise<RunningWebApp> {
  const [{ createBrainHttpServer }, { apiRoutes }, { uiRoutes }, { mcpBuckets }, { UiSessions: Sessions }] = await Promise.all([
    import('../http/server.js'),
    import('../http/api-route.js'),
    import('../http/ui-route.js'),
    import('../http/limits.js'),
    import('../http/ui-sessions.js'),
  ])
  const uiSessions: UiSessions = new Sessions()
  let lastRequestAt = Date.now()
  // A screen following the live event stream is in use for as long as the stream is open.
  let openStreams = 0
  const http: BrainHttpServer = createBrainHttpServer([...apiRoutes(), ...uiRoutes], { db, config, logger, version: options.version, ...mcpBuckets(config.http), uiSessions })
  http.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    lastRequestAt = Date.now()
    if (!req.url?.startsWith('/api/events')) return
    openStreams++
    res.once('close', () => {
      openStreams--
      lastRequestAt = Date.now()
    })
  })
  const address: AddressInfo = await http.listen(options.port, '127.0.0.1')
  const base = `http://127.0.0.1:${address.port}`
  logger.info(`web app on ${base}/ui`)
  return {
    base,
    signInUrl: () => `${base}/ui/login?code=${uiSessions.issueCode()}`,
    get lastRequestAt() {
      return openStreams > 0 ? Date.now() : lastRequestAt
    },
    close: () => http.shutdown(),
  }
}
