import type { ServerResponse } from 'node:http'
import type { VerifiedToken } from '../auth/index.js'
import type { RouteRequest, Route } from './types.js'
import type { AdminFeed } from './admin-feed.js'
import { sendJson } from './respond.js'

/**
 * `GET /api/events`: what the brain is doing, live, as server-sent events, for the web app's
 * jobs and activity screens. Jobs come from the queue (so a job submitted by any process shows
 * within a poll); with the admin scope also worker registrations, supervisor events from their
 * files, and accepted `/ingest` requests. Events: `job`, `workers`, `supervisor`, `ingest`.
 */

const JOB_POLL_MS = 500
const WORKER_POLL_MS = 2_000
const SUPERVISOR_POLL_MS = 1_000
const HEARTBEAT_MS = 15_000

type Authorize = (request: RouteRequest) => Promise<VerifiedToken | { status: number; body: unknown; headers?: Record<string, string> }>

function send(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
}

/** Runs `tick` every `ms` until stopped; a failing tick is logged once per kind and retried. */
function every(ms: number, tick: () => Promise<void>, onError: (err: unknown) => void): () => void {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const loop = async (): Promise<void> => {
    try {
      await tick()
    } catch (err) {
      onError(err)
    }
    if (!stopped) timer = setTimeout(() => void loop(), ms)
  }
  void loop()
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}

async function stream(request: RouteRequest, token: VerifiedToken, feed: AdminFeed | undefined): Promise<void> {
  const { res, deps } = request
  const admin = token.scopes.includes('admin')
  const [{ openQueue }, activity] = await Promise.all([import('../queue/index.js'), import('../activity/index.js')])
  const queue = await openQueue({ db: deps.db, config: deps.config, logger: deps.logger })
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' })
  send(res, 'hello', { admin })
  const failed = new Set<string>()
  const logOnce = (kind: string) => (err: unknown) => {
    if (failed.has(kind)) return
    failed.add(kind)
    deps.logger.warn(`event stream: ${kind} poll failed`, { error: err instanceof Error ? err.message : String(err) })
  }
  const seen = new Map<string, string>()
  const stops = [
    every(
      JOB_POLL_MS,
      async () => {
        const recent = (await queue.list({ limit: 50 })).reverse()
        for (const job of recent) {
          const state = `${job.status}|${job.attempts}|${job.completedAt?.getTime() ?? ''}`
          if (seen.get(job.id) === state) continue
          seen.set(job.id, state)
          send(res, 'job', { id: job.id, name: job.name, status: job.status, attempts: job.attempts, createdAt: job.createdAt, completedAt: job.completedAt })
        }
        // Only the newest jobs are compared, so a stream open for days remembers no more than them.
        const current = new Set(recent.map((job) => job.id))
        for (const id of seen.keys()) if (!current.has(id)) seen.delete(id)
      },
      logOnce('jobs'),
    ),
  ]
  if (admin) {
    let lastWorkers = ''
    stops.push(
      every(
        WORKER_POLL_MS,
        async () => {
          const workers = await activity.listWorkers(deps.db)
          const key = JSON.stringify(workers.map((w) => [w.id, w.active_jobs]))
          if (key !== lastWorkers) send(res, 'workers', { workers })
          lastWorkers = key
        },
        logOnce('workers'),
      ),
    )
    const tail = await activity.EventFileTail.fromEnd(deps.config.home)
    stops.push(
      every(
        SUPERVISOR_POLL_MS,
        async () => {
          for (const event of await tail.poll()) send(res, 'supervisor', event)
        },
        logOnce('supervisor'),
      ),
    )
    if (feed) stops.push(feed.subscribe((event) => send(res, 'ingest', event)))
  }
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS)
  heartbeat.unref()
  res.on('close', () => {
    clearInterval(heartbeat)
    for (const stop of stops) stop()
    void queue.close()
  })
}

export function apiEventsRoute(authorize: Authorize, feed?: AdminFeed): Route {
  return {
    method: 'GET',
    path: '/api/events',
    async handle(request) {
      const token = await authorize(request)
      if (!('scopes' in token)) {
        sendJson(request.res, token.status, token.body, token.headers)
        return
      }
      if (!token.scopes.some((s) => s === 'read' || s === 'write' || s === 'admin')) {
        sendJson(request.res, 403, {
          error: { class: 'AuthError', code: 'insufficient_scope', message: 'The event stream needs the read scope.', hint: 'Create a token with `brain auth create <name> --scopes read`.' },
        })
        return
      }
      await stream(request, token, feed)
    },
  }
}
