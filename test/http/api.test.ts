// test-runner: shares a process
/**
 * The JSON API under /api/ on a real `brain serve --http`: one route per operation of the
 * catalogue, the same tokens and scopes as /mcp, the error envelope with an HTTP status, and a
 * row in the request log for every call.
 */
import t from 'tap'
import { OPERATIONS } from '../../src/operations/catalogue.js'
import { createPgDatabase } from '../helpers/engines.js'
import { auditRows, makeToken, startServe } from './helpers.js'

t.test('every operation answers at /api/<name> behind the access tokens', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const writer = await makeToken(created.url, 'web-writer', ['read', 'write'])
  const reader = await makeToken(created.url, 'web-reader', ['read'])
  const admin = await makeToken(created.url, 'web-admin', ['read', 'write', 'admin'])
  const api = async (path: string, token: string | null, body?: unknown, raw?: string) => {
    const response = await fetch(`${server.base}${path}`, {
      method: body === undefined && raw === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    })
    return { status: response.status, json: (await response.json()) as Record<string, any> }
  }

  const anonymous = await api('/api', null)
  t.equal(anonymous.status, 401)
  t.match(anonymous.json, { error: { class: 'AuthError', code: 'unauthorized' } })
  t.equal((await api('/api/list_pages', null, {})).status, 401, 'no call without a token')
  const listed = await api('/api', reader)
  t.equal(listed.status, 200)
  t.same(listed.json.operations.map((o: { name: string }) => o.name).sort(), OPERATIONS.map((o) => o.name).sort(), 'the catalogue, whole')
  t.match(
    listed.json.operations.find((o: { name: string }) => o.name === 'put_page'),
    { path: '/api/put_page', mutating: true, input_schema: { type: 'object' } },
  )

  const put = await api('/api/put_page', writer, { slug: 'web/first', content: '# First\n\nA page written from the web.\n', no_embed: true })
  t.equal(put.status, 200)
  t.match(put.json, { slug: 'web/first', status: 'created', ingested_via: 'mcp:put_page' })
  t.match(await api('/api/get_page', reader, { slug: 'web/first' }), { status: 200, json: { title: 'First', compiled_truth: /from the web/ } })
  t.match(await api('/api/search', reader, { query: 'written web' }), { status: 200, json: { results: [{ slug: 'web/first' }] } })
  await api('/api/put_page', writer, { slug: 'web/first', content: '# First\n\nEdited.\n', no_embed: true })
  t.match(await api('/api/list_versions', reader, { slug: 'web/first' }), {
    status: 200,
    json: {
      versions: [
        { number: 2, by: 'web-writer' },
        { number: 1, by: 'web-writer' },
      ],
    },
  })

  t.match(await api('/api/put_page', reader, { slug: 'web/nope', content: 'x' }), { status: 403, json: { error: { code: 'insufficient_scope' } } }, 'read scope cannot write')
  t.match(await api('/api/get_page', reader, { slug: 'web/missing' }), { status: 404, json: { error: { class: 'NotFoundError', code: 'page_not_found', hint: /\S/ } } })
  t.match(await api('/api/get_page', reader, undefined, '{not json'), { status: 400, json: { error: { code: 'invalid_json' } } })
  t.match(await api('/api/delete_page', writer, { slug: 'web/first', hard: true, yes: true }), { status: 400, json: { error: { code: 'hard_delete_local_only' } } })
  t.match(await api('/api/delete_page', writer, { slug: 'web/first' }), { status: 200, json: { trashed: true } })
  t.match(await api('/api/purge_trash', writer, {}), { status: 403, json: { error: { code: 'insufficient_scope' } } }, 'purging needs admin')
  t.match(await api('/api/purge_trash', admin, {}), { status: 200, json: { purged: 1 } })

  for (const operation of OPERATIONS) {
    const refused = await api(`/api/${operation.name}`, admin, { not_an_argument: true })
    t.match(refused, { status: 400, json: { error: { class: 'UsageError', code: 'invalid_params' } } }, `${operation.name} has a route that checks its arguments`)
  }

  const rows = await auditRows(created.url)
  t.ok(
    rows.some((r) => r.route === '/api/put_page' && r.tool_name === 'put_page' && r.status === 200),
    'calls are in the request log',
  )
  t.ok(
    rows.some((r) => r.route === '/api' && r.status === 401 && r.token_id === null),
    'refusals too',
  )
})
