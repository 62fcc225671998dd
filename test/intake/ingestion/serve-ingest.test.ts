/**
 * POST /ingest through the real `brain serve --http` process: the route is in the served route
 * table, an admin token made with `brain auth create --scopes admin` hears the feed, and the job
 * becomes a page that `brain search` finds.
 */
import t from 'tap'
import { runBrain } from '../../helpers/cli.js'
import { createPgDatabase } from '../../helpers/engines.js'
import { makeToken, openDb, startServe } from '../../http/helpers.js'
import { openQueue } from '../../../src/queue/index.js'
import { testConfig, testLogger } from '../../queue/helpers.js'

t.test('brain serve --http accepts /ingest and streams it on /admin/events', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const env = { BRAIN_HOME: server.home, BRAIN_DATABASE_URL: created.url, BRAIN_EMBEDDING_PROVIDER: 'local' }
  const admin = await runBrain(['auth', 'create', 'ops', '--scopes', 'admin', '--json'], env)
  t.equal(admin.code, 0, admin.stderr)
  const adminToken = admin.json<{ token: string }>().token
  const writer = await makeToken(created.url, 'phone', ['write'])

  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const feed = await fetch(`${server.base}/admin/events`, { headers: { authorization: `Bearer ${adminToken}` }, signal: controller.signal })
  t.equal(feed.status, 200)
  const res = await fetch(`${server.base}/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${writer}`, 'content-type': 'text/plain', 'x-brain-slug': 'phone/shopping' },
    body: 'Buy saffron and juniper berries',
  })
  t.equal(res.status, 202)
  const { job_id } = (await res.json()) as { job_id: string }
  const reader = feed.body!.getReader()
  let text = ''
  while (!/data: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value)
  t.match(JSON.parse(/data: (.*)\n/.exec(text)![1]!), { job_id, token_name: 'phone', slug: 'phone/shopping', content_type: 'text/plain' })

  const db = await openDb(created.url)
  t.teardown(() => db.close())
  const queue = await openQueue({ db, config: testConfig(), logger: testLogger() })
  const job = (await queue.get(job_id))!
  t.equal(job.data.untrusted_payload, true)
  await queue.submitAndWait('ingest_capture', { event: {} }, { idempotencyKey: job.idempotencyKey! })
  await queue.close()
  const found = await runBrain(['search', 'saffron juniper', '--json'], env)
  t.equal(found.code, 0, found.stderr)
  t.match(found.json<{ results: Array<{ slug: string }> }>().results[0], { slug: 'phone/shopping' })
})
