/**
 * /health against a private PostgreSQL cluster that is stopped and started again.
 */
import t from 'tap'
import { startPgCluster } from '../helpers/pg-cluster.js'
import { startServe, waitFor } from './helpers.js'

t.test('/health is 503 while the database is down and 200 after it returns', async (t) => {
  const cluster = await startPgCluster()
  t.teardown(() => cluster.stop())
  const server = await startServe(cluster.adminUrl)
  t.teardown(() => server.stop('SIGKILL'))
  const ok = await fetch(`${server.base}/health`)
  t.equal(ok.status, 200)
  t.match(await ok.json(), { status: 'ok', db: 'ok' })

  cluster.pause()
  const down = await fetch(`${server.base}/health`)
  t.equal(down.status, 503)
  t.match(await down.json(), { status: 'unhealthy' })
  const mcp = await fetch(`${server.base}/mcp`, { method: 'POST', headers: { Authorization: 'Bearer brain_x', 'Content-Type': 'application/json' }, body: '{}' })
  t.equal(mcp.status, 503, '/mcp says unavailable instead of hanging')

  cluster.resume()
  const back = await waitFor(async () => {
    const res = await fetch(`${server.base}/health`)
    return res.status === 200 ? res : undefined
  }, '/health to recover')
  t.match(await back.json(), { status: 'ok', db: 'ok' })
  t.equal(await server.stop(), 0)
})
