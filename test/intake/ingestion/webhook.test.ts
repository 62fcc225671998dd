// test-runner: shares a process
import t, { type Test } from 'tap'
import { request as httpRequest } from 'node:http'
import { createToken } from '../../../src/auth/index.js'
import { createBrainHttpServer, mcpBuckets } from '../../../src/http/index.js'
import { AdminFeed } from '../../../src/http/admin-feed.js'
import { computeContentHash } from '../../../src/intake/ingestion/event.js'
import { ingestRoutes } from '../../../src/http/ingest-route.js'
import { openQueue } from '../../../src/queue/index.js'
import type { Database } from '../../../src/db/types.js'
import { openTestDatabase } from '../../helpers/engines.js'
import { testConfig, testLogger } from '../../queue/helpers.js'

interface Ctx {
  db: Database
  base: string
  writer: string
  reader: string
  admin: string
  clock: { now: number }
  feed: AdminFeed
}

async function setup(t: Test, env: Record<string, string> = {}): Promise<Ctx> {
  const test = await openTestDatabase('postgres')
  t.teardown(test.cleanup)
  const config = testConfig(env)
  const clock = { now: 1_000_000 }
  const feed = new AdminFeed()
  const http = createBrainHttpServer(ingestRoutes({ feed, now: () => clock.now }), { db: test.db, config, logger: testLogger(), version: 'test', ...mcpBuckets(config.http) })
  const address = await http.listen(0, '127.0.0.1')
  t.teardown(() => http.shutdown())
  const token = async (name: string, scopes: Array<'read' | 'write' | 'admin'>) => (await createToken(test.db, name, scopes)).token
  return {
    db: test.db,
    base: `http://127.0.0.1:${address.port}`,
    writer: await token('writer', ['read', 'write']),
    reader: await token('reader', ['read']),
    admin: await token('ops', ['admin']),
    clock,
    feed,
  }
}

function ingest(ctx: Ctx, body: string | Buffer, headers: Record<string, string> = {}, token: string | null = ctx.writer): Promise<Response> {
  return fetch(`${ctx.base}/ingest`, { method: 'POST', body, headers: { 'content-type': 'text/markdown', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } })
}

async function jobCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM minion_jobs WHERE name = 'ingest_capture'")
  return Number(rows[0]!.n)
}

async function auditRows(db: Database): Promise<Array<{ status: number; error_code: string | null; token_id: number | null }>> {
  const { rows } = await db.query<{ status: number; error_code: string | null; token_id: number | null }>(
    "SELECT status, error_code, token_id FROM mcp_request_log WHERE route = '/ingest' ORDER BY id",
  )
  return rows
}

t.test('401 without valid credentials, 403 for a read-only token; every request is audited', async (t) => {
  const ctx = await setup(t)
  t.equal((await ingest(ctx, 'x', {}, null)).status, 401)
  const notBearer = await ingest(ctx, 'x', { authorization: 'Basic Zm9vOmJhcg==' }, null)
  t.equal(notBearer.status, 401)
  t.equal((await ingest(ctx, 'x', {}, 'brain_not_a_real_token')).status, 401)
  const forbidden = await ingest(ctx, 'x', {}, ctx.reader)
  t.equal(forbidden.status, 403)
  t.match(await forbidden.json(), { error: 'insufficient_scope' })
  t.equal(await jobCount(ctx.db), 0)
  const audit = await auditRows(ctx.db)
  t.same(
    audit.map((r) => [r.status, r.error_code]),
    [
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [401, 'unauthorized'],
      [403, 'insufficient_scope'],
    ],
  )
  t.ok(audit[3]!.token_id !== null, 'the read-only token is named in its audit row')
})

t.test('202 with job_id: one untrusted ingest_capture job per request, headers carried into the event', async (t) => {
  const ctx = await setup(t)
  const res = await ingest(ctx, '# Hello\n\nfrom the web\n', { 'x-brain-source-id': 'zapier', 'x-brain-source-uri': 'https://example.test/1', 'x-brain-slug': 'web/hello' })
  t.equal(res.status, 202)
  const body = (await res.json()) as { job_id: string; duplicate: boolean }
  t.match(body, { job_id: /^[0-9a-f-]{36}$/, duplicate: false })
  const queue = await openQueue({ db: ctx.db, config: testConfig(), logger: testLogger() })
  const job = (await queue.get(body.job_id))!
  t.equal(job.name, 'ingest_capture')
  t.equal(job.data.untrusted_payload, true)
  t.equal(job.data.slug, 'web/hello')
  t.match(job.data.event, { content_type: 'text/markdown', content: '# Hello\n\nfrom the web\n', source_id: 'zapier', source_uri: 'https://example.test/1' })
  const again = await ingest(ctx, '# Hello\n\nfrom the web\n')
  t.match(await again.json(), { job_id: body.job_id, duplicate: true }, 'identical content from the same client is the same job')
  const other = await ingest(ctx, 'different content')
  t.not(((await other.json()) as { job_id: string }).job_id, body.job_id)
  const otherClient = (await createToken(ctx.db, 'second', ['write'])).token
  const fromOther = await ingest(ctx, '# Hello\n\nfrom the web\n', {}, otherClient)
  t.not(((await fromOther.json()) as { job_id: string }).job_id, body.job_id, 'another client gets its own job')
  t.equal(await jobCount(ctx.db), 3)
  const done = await queue.submitAndWait('ingest_capture', { event: {} }, { idempotencyKey: job.idempotencyKey! })
  t.match(done.result, { slug: 'web/hello', status: 'created' }, 'the job becomes the page')
  await queue.close()
})

t.test('content types: unknown text/* is text/plain, the override header wins, binary is 415 with no job', async (t) => {
  const ctx = await setup(t)
  const csv = await ingest(ctx, 'a,b\n1,2\n', { 'content-type': 'text/csv' })
  t.equal(csv.status, 202)
  const queue = await openQueue({ db: ctx.db, config: testConfig(), logger: testLogger() })
  t.match((await queue.get(((await csv.json()) as { job_id: string }).job_id))!.data.event, { content_type: 'text/plain' })
  const html = await ingest(ctx, '<p>hi</p>', { 'content-type': 'application/octet-stream', 'x-brain-content-type': 'text/html' })
  t.equal(html.status, 202, 'X-Brain-Content-Type overrides Content-Type')
  const pdf = await ingest(ctx, Buffer.from('%PDF-1.7\n\xff\xfe', 'latin1'), { 'content-type': 'application/pdf' })
  t.equal(pdf.status, 202, 'a PDF goes to its converter')
  t.match((await queue.get(((await pdf.json()) as { job_id: string }).job_id))!.data.event, {
    content_type: 'application/pdf',
    content_encoding: 'base64',
    content: Buffer.from('%PDF-1.7\n\xff\xfe', 'latin1').toString('base64'),
  })
  for (const type of ['image/png', 'audio/mpeg', 'video/mp4']) {
    const res = await ingest(ctx, Buffer.from([0x89, 0x50, 0x4e, 0x47]), { 'content-type': type })
    t.equal(res.status, 415, type)
    t.match(await res.json(), { error: 'unsupported_media_type', hint: /install an ingestion processor/ })
  }
  const labelled = await ingest(ctx, 'x', { 'content-type': 'text/plain', 'x-brain-content-type': 'image/jpeg' })
  t.equal(labelled.status, 415)
  const notUtf8 = await ingest(ctx, Buffer.from([0xff, 0xfe, 0x00]), { 'content-type': 'text/plain' })
  t.equal(notUtf8.status, 415, 'bytes that are not UTF-8 are refused as binary')
  t.equal(await jobCount(ctx.db), 3)
  await queue.close()
})

t.test('400 empty_body, 400 for a bad slug, 413 over BRAIN_INGEST_MAX_BYTES (also chunked)', async (t) => {
  const ctx = await setup(t, { BRAIN_INGEST_MAX_BYTES: '1000' })
  const empty = await ingest(ctx, '')
  t.equal(empty.status, 400)
  t.same(await empty.json(), { error: 'empty_body' })
  const badSlug = await ingest(ctx, 'x', { 'x-brain-slug': '../escape' })
  t.equal(badSlug.status, 400)
  t.match(await badSlug.json(), { error: 'invalid_slug' })
  t.equal((await ingest(ctx, 'y'.repeat(1000))).status, 202, 'exactly the cap is accepted')
  const declared = await ingest(ctx, 'y'.repeat(1001))
  t.equal(declared.status, 413)
  t.match(await declared.json(), { error: 'body_too_large', max_bytes: 1000 })
  const chunked = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${ctx.base}/ingest`, { method: 'POST', headers: { authorization: `Bearer ${ctx.writer}`, 'content-type': 'text/plain', 'transfer-encoding': 'chunked' } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    for (let i = 0; i < 5; i++) req.write('z'.repeat(300))
    req.end()
  })
  t.equal(chunked, 413, 'a chunked body without Content-Length is capped on the stream')
  t.equal(await jobCount(ctx.db), 1)
})

t.test('a document has its own cap: over BRAIN_INGEST_MAX_BYTES but under BRAIN_INGEST_MAX_DOCUMENT_BYTES is accepted', async (t) => {
  const ctx = await setup(t, { BRAIN_INGEST_MAX_BYTES: '1000', BRAIN_INGEST_MAX_DOCUMENT_BYTES: '5000' })
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x41)])
  t.equal((await ingest(ctx, pdf, { 'content-type': 'application/pdf' })).status, 202, 'a 3 KB PDF passes the document cap')
  t.equal((await ingest(ctx, 'y'.repeat(3000))).status, 413, 'the same size of text is over the text cap')
  const big = await ingest(ctx, Buffer.concat([pdf, Buffer.alloc(3000, 0x42)]), { 'content-type': 'application/pdf' })
  t.equal(big.status, 413)
  t.match(await big.json(), { error: 'body_too_large', max_bytes: 5000, hint: /BRAIN_INGEST_MAX_DOCUMENT_BYTES/ })
  t.equal(await jobCount(ctx.db), 1)
})

t.test('100 events per 10 s per IP, then 429 with Retry-After', async (t) => {
  const ctx = await setup(t)
  for (let i = 0; i < 100; i++) {
    const res = await ingest(ctx, 'x', {}, null)
    if (res.status !== 401) t.fail(`request ${i} answered ${res.status}`)
  }
  const limited = await ingest(ctx, 'x')
  t.equal(limited.status, 429)
  t.equal(limited.headers.get('retry-after'), '1')
  t.match(await limited.json(), { error: 'rate_limited' })
  ctx.clock.now += 100
  t.equal((await ingest(ctx, 'after refill')).status, 202, 'one event refills every 100 ms')
  t.equal((await ingest(ctx, 'too soon')).status, 429)
  ctx.clock.now += 10_000
  t.equal((await ingest(ctx, 'full again')).status, 202)
})

t.test('at most 50 waiting ingest_capture jobs per client', async (t) => {
  const ctx = await setup(t)
  const ids: string[] = []
  for (let i = 0; i < 50; i++) {
    const res = await ingest(ctx, `note ${i}`)
    if (res.status !== 202) t.fail(`note ${i} answered ${res.status}`)
    ids.push(((await res.json()) as { job_id: string }).job_id)
  }
  const refused = await ingest(ctx, 'note 50')
  t.equal(refused.status, 429)
  t.match(await refused.json(), { error: 'ingest_backlog_full', waiting: 50, max_waiting: 50 })
  t.ok(refused.headers.get('retry-after'))
  const repeat = await ingest(ctx, 'note 7')
  t.equal(repeat.status, 202, 'a repeat of waiting content still answers with its job')
  t.equal(((await repeat.json()) as { job_id: string }).job_id, ids[7])
  const other = (await createToken(ctx.db, 'other-client', ['write'])).token
  t.equal((await ingest(ctx, 'note 50', {}, other)).status, 202, 'the cap is per client')
  const queue = await openQueue({ db: ctx.db, config: testConfig(), logger: testLogger() })
  await queue.submitAndWait('ingest_capture', { event: {} }, { idempotencyKey: (await queue.get(ids[0]!))!.idempotencyKey! })
  await queue.close()
  t.equal((await ingest(ctx, 'note 50')).status, 202, 'a finished job frees a place')
  t.equal(await jobCount(ctx.db), 52)
})

t.test('the admin feed streams one event per accepted request to admin tokens only', async (t) => {
  const ctx = await setup(t)
  t.equal((await fetch(`${ctx.base}/admin/events`)).status, 401)
  t.equal((await fetch(`${ctx.base}/admin/events`, { headers: { authorization: `Bearer ${ctx.writer}` } })).status, 403)
  const controller = new AbortController()
  t.teardown(() => controller.abort())
  const stream = await fetch(`${ctx.base}/admin/events`, { headers: { authorization: `Bearer ${ctx.admin}` }, signal: controller.signal })
  t.equal(stream.status, 200)
  t.match(stream.headers.get('content-type'), /^text\/event-stream/)
  const reader = stream.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const res = await ingest(ctx, 'watched content', { 'x-brain-source-id': 'ifttt' })
  const { job_id } = (await res.json()) as { job_id: string }
  await ingest(ctx, '', {})
  while (!text.includes('\n\ndata') && !/data: .*\n\n/.test(text)) text += decoder.decode((await reader.read()).value)
  const data = JSON.parse(/data: (.*)\n/.exec(text)![1]!) as Record<string, unknown>
  t.match(text, /event: ingest\n/)
  t.match(data, {
    job_id,
    duplicate: false,
    client_id: /^webhook:\d+$/,
    token_name: 'writer',
    source_id: 'ifttt',
    content_type: 'text/markdown',
    bytes: 15,
    content_hash: computeContentHash({ content: 'watched content' }),
  })
  t.notOk('content' in data, 'the content itself is not broadcast')
  t.equal(ctx.feed.subscribers, 1)
})

t.test('X-Brain-Slug honours the remote slug allowlist', async (t) => {
  const ctx = await setup(t, { BRAIN_REMOTE_SLUG_PREFIXES: 'web/,phone/' })
  const refused = await ingest(ctx, 'x', { 'x-brain-slug': 'people/ada' })
  t.equal(refused.status, 403)
  t.match(await refused.json(), { error: 'slug_not_allowed', hint: /web\/, phone\// })
  t.equal((await ingest(ctx, 'y', { 'x-brain-slug': 'web/clip' })).status, 202)
  t.equal((await ingest(ctx, 'z')).status, 202, 'without a slug the default inbox slug is used')
  t.equal(await jobCount(ctx.db), 2)
})
