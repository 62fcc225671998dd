// test-runner: shares a process
import t from 'tap'
import { jobOfError, openQueue } from '../../../src/queue/index.js'
import { computeContentHash } from '../../../src/intake/ingestion/event.js'
import { engineTest } from '../../helpers/engines.js'
import { testConfig, testLogger } from '../../queue/helpers.js'
import type { Database } from '../../../src/db/types.js'

async function queueOn(db: Database) {
  return openQueue({ db, config: testConfig(), logger: testLogger() })
}

async function page(db: Database, slug: string) {
  const { rows } = await db.query<{ title: string; compiled_truth: string; ingested_via: string; source_uri: string | null; source_kind: string }>(
    'SELECT title, compiled_truth, ingested_via, source_uri, source_kind FROM pages WHERE slug = $1',
    [slug],
  )
  return rows[0] ?? null
}

engineTest(t, 'ingest_capture writes markdown through the import and queues one separate embed job', async (t, { db }) => {
  const queue = await queueOn(db)
  const event = {
    content_type: 'text/markdown',
    content: '# Meeting\n\nWe agreed on the quarterly plan.\n',
    source_id: 'webhook:abc',
    source_uri: 'https://example.test/m/1',
    metadata: { slug: 'meetings/q3' },
  }
  const job = await queue.submitAndWait('ingest_capture', { event })
  t.match(job.result, { slug: 'meetings/q3', status: 'created', chunks: 1 })
  t.match(await page(db, 'meetings/q3'), { title: 'Meeting', ingested_via: 'ingest_capture', source_uri: 'https://example.test/m/1', source_kind: 'webhook:abc' })
  const embedded = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.slug = 'meetings/q3' AND c.embedding IS NOT NULL")
  t.equal(Number(embedded.rows[0]!.n), 0, 'the job itself embeds nothing')
  const embedJobs = await queue.list({ name: 'embed' })
  t.equal(embedJobs.length, 1)
  t.equal((job.result as { embed_job_id: string }).embed_job_id, embedJobs[0]!.id)
  t.same(embedJobs[0]!.data, { mode: 'stale', untrusted_payload: false })
  const again = await queue.submitAndWait('ingest_capture', { event, slug: 'meetings/q3' })
  t.match(again.result, { status: 'skipped', embed_job_id: null }, 'unchanged content writes nothing and queues no embed job')
  t.equal((await queue.list({ name: 'embed' })).length, 1)
})

engineTest(t, 'slug: job data slug, then metadata.slug, then inbox/<date>-<hash6>', async (t, { db }) => {
  const queue = await queueOn(db)
  const base = { content_type: 'text/plain', source_id: 'test' }
  const fromData = await queue.submitAndWait('ingest_capture', { slug: 'chosen/by-header', event: { ...base, content: 'one', metadata: { slug: 'ignored' } } })
  t.equal((fromData.result as { slug: string }).slug, 'chosen/by-header')
  const fromMeta = await queue.submitAndWait('ingest_capture', { event: { ...base, content: 'two', metadata: { slug: 'from/metadata' } } })
  t.equal((fromMeta.result as { slug: string }).slug, 'from/metadata')
  const content = 'three: plain prose without a heading'
  const byDefault = await queue.submitAndWait('ingest_capture', { event: { ...base, content, received_at: '2026-03-04T23:59:00Z' } })
  t.equal((byDefault.result as { slug: string }).slug, `inbox/2026-03-04-${computeContentHash({ content }).slice(0, 6)}`)
  const stored = await page(db, `inbox/2026-03-04-${computeContentHash({ content }).slice(0, 6)}`)
  t.match(stored?.compiled_truth, /three: plain prose/, 'plain text is shaped like a capture')
  t.equal(stored?.title, content)
})

engineTest(t, 'HTML is read as text and JSON is kept in a fenced block', async (t, { db }) => {
  const queue = await queueOn(db)
  await queue.submitAndWait('ingest_capture', {
    event: { content_type: 'text/html', content: '<html><head><title>x</title><script>evil()</script></head><body><p>Tea &amp; cake</p></body></html>', source_id: 's', metadata: { slug: 'h' } },
  })
  const html = await page(db, 'h')
  t.match(html?.compiled_truth, /Tea & cake/)
  t.notMatch(html?.compiled_truth, /evil|<p>/)
  await queue.submitAndWait('ingest_capture', { event: { content_type: 'text/html', content: '<p>Caf&#233; &#9999999; &#xD800; &#x1F375;</p>', source_id: 's', metadata: { slug: 'refs' } } })
  t.match((await page(db, 'refs'))?.compiled_truth, /Café &#9999999; &#xD800; 🍵/, 'a character reference to no character stays as written')
  await queue.submitAndWait('ingest_capture', { event: { content_type: 'application/json', content: '{"k": [1, 2]}', source_id: 's', metadata: { slug: 'j' } } })
  t.match((await page(db, 'j'))?.compiled_truth, /```json\n\{"k": \[1, 2\]\}\n```/)
})

engineTest(t, 'binary content and invalid events end the job dead with a reason', async (t, { db }) => {
  const queue = await queueOn(db)
  const binary = await queue.submitAndWait('ingest_capture', { event: { content_type: 'image/png', content: 'PNG…', source_id: 's' } }).then(
    () => null,
    (err: unknown) => err,
  )
  t.match(binary, { code: 'binary_content_unsupported', hint: /install an ingestion processor/ })
  t.equal(jobOfError(binary)?.status, 'dead')
  const invalid = await queue.submitAndWait('ingest_capture', { event: { content_type: 'text/plain', source_id: 's' } }).then(
    () => null,
    (err: unknown) => err,
  )
  t.match(invalid, { code: 'invalid_ingestion_event', message: /content/ })
  // @ts-expect-error an ingest_capture job without an event does not compile, and submit refuses it
  const missing = await queue.submitAndWait('ingest_capture', {}).then(
    () => null,
    (err: unknown) => err,
  )
  t.match(missing, { code: 'invalid_ingestion_event' })
  const pages = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM pages')
  t.equal(Number(pages.rows[0]!.n), 0, 'no page was written')
})
