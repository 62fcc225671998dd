import { sendJson } from './respond.js'
import type { Route } from './types.js'

const HEALTH_TIMEOUT_MS = 3000

/** `GET /health`: no auth, no rate limit; 503 when the database does not answer a trivial query. */
export const healthRoute: Route = {
  method: 'GET',
  path: '/health',
  async handle({ res, deps }) {
    let timer: NodeJS.Timeout | undefined
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database health check timed out')), HEALTH_TIMEOUT_MS)
      })
      await Promise.race([deps.db.query('SELECT 1'), timeout])
      sendJson(res, 200, { status: 'ok', db: 'ok', version: deps.version })
    } catch (err) {
      deps.logger.warn('health check failed', { error: err instanceof Error ? err.message : String(err) })
      sendJson(res, 503, { status: 'unhealthy', db: 'unreachable' })
    } finally {
      clearTimeout(timer)
    }
  },
}
