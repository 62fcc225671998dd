// test-runner: shares a process
/**
 * The operate half of the JSON API on a real `brain serve --http` (server engine): doctor,
 * workers, supervisor events, access tokens and the request log behind the admin scope; tags,
 * file outlines and search filters for readers; and the live event stream at /api/events.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, startServe } from './helpers.js'
import { readEvents } from './events-reader.js'

t.test('operators read doctor, workers, events, tokens and the request log; readers do not', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const reader = await makeToken(created.url, 'ops-reader', ['read'])
  const writer = await makeToken(created.url, 'ops-writer', ['read', 'write'])
  const admin = await makeToken(created.url, 'ops-admin', ['admin'])
  const owner = await makeToken(created.url, 'ops-owner', ['read', 'write', 'admin'])
  const api = async (name: string, token: string, body: unknown = {}) => {
    const response = await fetch(`${server.base}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
    return { status: response.status, json: (await response.json()) as Record<string, any> }
  }

  for (const name of ['run_doctor', 'list_workers', 'list_supervisor_events', 'list_tokens', 'list_requests']) {
    t.match(await api(name, reader), { status: 403, json: { error: { code: 'insufficient_scope' } } }, `${name} is refused to a reader`)
  }
  const doctor = await api('run_doctor', admin)
  t.equal(doctor.status, 200, 'an admin-only token runs doctor')
  t.ok(
    doctor.json.checks.some((c: { name: string }) => c.name === 'embeddings'),
    'with the embeddings check',
  )
  t.match(doctor.json, { status: /^(ok|warn|fail)$/ })
  t.match(await api('list_workers', admin), { status: 200, json: { workers: [] } })

  appendFileSync(join(server.home, 'supervisor-events.jsonl'), `${JSON.stringify({ ts: new Date().toISOString(), event: 'worker_started', pid: 4242 })}\nnot json\n`)
  const events = await api('list_supervisor_events', admin, { limit: 10 })
  t.match(events.json.events, [{ supervisor: 'jobs', event: 'worker_started', pid: 4242 }], 'supervisor events from the file; a bad line skipped')

  t.match(await api('create_token', admin, { name: 'from-the-web' }), { status: 403 }, 'minting a token changes the brain: admin alone is not enough, it needs write too')
  const made = await api('create_token', owner, { name: 'from-the-web', scopes: ['read'] })
  t.match(made, { status: 200, json: { name: 'from-the-web', scopes: ['read'], token: /^brain_/ } }, 'a created token is shown in the answer')
  t.equal((await api('list_pages', made.json.token)).status, 200, 'and works')
  const listed = await api('list_tokens', admin)
  t.notOk(JSON.stringify(listed.json).includes(made.json.token), 'the token list never holds a token')
  t.ok(listed.json.tokens.some((x: { name: string }) => x.name === 'from-the-web'))
  t.match(await api('revoke_token', owner, { token: 'from-the-web' }), { status: 200, json: { name: 'from-the-web', revoked_at: /\d/ } })
  t.equal((await api('list_pages', made.json.token)).status, 401, 'a revoked token is refused')
  t.match(await api('create_token', writer, { name: 'sneaky' }), { status: 403 }, 'a writer cannot mint tokens')

  const requests = await api('list_requests', admin, { limit: 50 })
  t.ok(
    requests.json.requests.some((r: { tool_name: string; status: number; token_name: string }) => r.tool_name === 'run_doctor' && r.status === 403 && r.token_name === 'ops-reader'),
    'the request log shows the refused call and who made it',
  )
  t.notOk(JSON.stringify(requests.json).includes('brain_'), 'and never a token')
  const failed = await api('list_requests', admin, { errors_only: true })
  t.ok(failed.json.requests.length > 0 && failed.json.requests.every((r: { status: number }) => r.status >= 400), 'errors only')
})

t.test('tags, outlines and search filters answer readers; the event stream shows jobs as they change', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const reader = await makeToken(created.url, 'r', ['read'])
  const writer = await makeToken(created.url, 'w', ['read', 'write'])
  const api = async (name: string, token: string, body: unknown = {}) => {
    const response = await fetch(`${server.base}/api/${name}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) })
    return { status: response.status, json: (await response.json()) as Record<string, any> }
  }
  await api('put_page', writer, { slug: 'people/ada', content: '---\ntype: person\ntags: [math]\n---\n# Ada\n\nAda wrote about the engine.\n', no_embed: true })
  await api('put_page', writer, { slug: 'notes/engine', content: '---\ntags: [machines]\n---\n# Engine\n\nThe analytical engine.\n', no_embed: true })
  t.match(await api('list_tags', reader), {
    status: 200,
    json: {
      tags: [
        { tag: 'machines', pages: 1 },
        { tag: 'math', pages: 1 },
      ],
    },
  })
  const slugs = async (args: Record<string, unknown>) => (await api('search', reader, { query: 'engine', ...args })).json.results.map((r: { slug: string }) => r.slug).sort()
  t.same(await slugs({}), ['notes/engine', 'people/ada'])
  t.same(await slugs({ type: 'person' }), ['people/ada'], 'by page type')
  t.same(await slugs({ tag: 'machines' }), ['notes/engine'], 'by tag')
  t.same(await slugs({ tag: 'nothing' }), [], 'an unknown tag finds nothing')
  t.match(await api('code_symbols', reader, { slug: 'code/missing.ts' }), { status: 404, json: { error: { code: 'page_not_found' } } })

  t.equal((await fetch(`${server.base}/api/events`)).status, 401, 'no stream without a token')
  let jobId = ''
  const seen = await readEvents(
    `${server.base}/api/events`,
    { Authorization: `Bearer ${reader}` },
    (event, data) => event === 'job' && data.id === jobId,
    30_000,
    async () => {
      jobId = (await api('submit_job', writer, { name: 'extract', data: { slugs: ['people/ada'] } })).json.id
    },
  )
  t.match(seen.data, { name: 'extract', status: /^(waiting|active|completed|dead)$/ }, 'a job submitted elsewhere appears on the stream')
  t.notOk(
    seen.seen.some((e) => e.event === 'supervisor' || e.event === 'workers'),
    'a reader gets no operator events',
  )
})
