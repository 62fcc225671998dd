/**
 * The catalogue exercised through a real MCP SDK client, whatever the transport: every tool's
 * happy path and its invalid-params path.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Test } from 'tap'

export const EXPECTED_TOOLS = [
  'put_page',
  'capture',
  'get_page',
  'list_pages',
  'delete_page',
  'add_tag',
  'remove_tag',
  'search',
  'query',
  'context_pack',
  'ask',
  'code_def',
  'code_refs',
  'code_callers',
  'code_callees',
  'get_links',
  'get_backlinks',
  'graph_walk',
  'list_orphans',
  'list_unresolved',
  'list_entities',
  'sync',
  'submit_job',
  'get_job',
  'list_jobs',
  'job_stats',
  'audit_frontmatter',
  'reconcile_links',
  'extract_links',
  'embed_chunks',
  'list_sources',
  'get_stats',
  'get_health',
  'list_versions',
  'get_version',
  'diff_versions',
  'revert_page',
  'list_trash',
  'restore_page',
  'purge_trash',
  'cancel_job',
  'retry_job',
  'list_tags',
  'code_symbols',
  'run_doctor',
  'list_workers',
  'list_supervisor_events',
  'list_tokens',
  'create_token',
  'revoke_token',
  'reindex_search',
  'run_autopilot_cycle',
  'list_oauth_clients',
  'register_oauth_client',
  'revoke_oauth_client',
  'list_requests',
  'recall',
  'remember',
  'start_session',
  'create_backup',
  'list_backups',
  'export_files',
]

export interface CallOutcome {
  isError: boolean
  data: Record<string, unknown>
  text: string
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })
  const content = result.content as Array<{ type: string; text: string }>
  const text = content[0]?.text ?? ''
  const data = (result.structuredContent ?? {}) as Record<string, unknown>
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(data)) throw new Error(`text content and structuredContent differ for ${name}`)
  return { isError: result.isError === true, data, text }
}

export function envelope(outcome: CallOutcome): { class: string; code: string; hint: string } {
  return outcome.data.error as { class: string; code: string; hint: string }
}

export async function exerciseCatalogue(t: Test, client: Client, options: { remote: boolean }): Promise<void> {
  const listed = await client.listTools()
  t.same(listed.tools.map((tool) => tool.name).sort(), [...EXPECTED_TOOLS].sort(), 'tools/list names the whole catalogue')
  for (const tool of listed.tools) {
    t.equal(tool.inputSchema.type, 'object', `${tool.name} has an object input schema`)
    t.ok(tool.description && tool.description.length > 40, `${tool.name} has a description`)
  }

  const put = await call(client, 'put_page', { slug: 'notes/alpha', content: '---\ntitle: Alpha\n---\n# Alpha\n\nThe zanzibar protocol note.', no_embed: true })
  t.notOk(put.isError, put.text)
  t.match(put.data, { slug: 'notes/alpha', status: 'created', ingested_via: options.remote ? 'mcp:put_page' : 'put_page' })
  const again = await call(client, 'put_page', { slug: 'notes/alpha', content: '---\ntitle: Alpha\n---\n# Alpha\n\nThe zanzibar protocol note.', no_embed: true })
  t.equal(again.data.status, 'skipped', 'identical content is skipped')

  const captured = await call(client, 'capture', { text: 'remember the zanzibar dentist', no_embed: true })
  t.notOk(captured.isError, captured.text)
  t.match(captured.data, { status: 'created', slug: /^inbox\/\d{4}-\d{2}-\d{2}-[0-9a-f]{8}$/ })

  const got = await call(client, 'get_page', { slug: 'notes/alpha' })
  t.match(got.data, { slug: 'notes/alpha', title: 'Alpha', compiled_truth: /zanzibar/ })
  const missing = await call(client, 'get_page', { slug: 'notes/nope' })
  t.ok(missing.isError)
  t.match(envelope(missing), { class: 'NotFoundError', code: 'page_not_found', hint: /\S/ })

  const listedPages = await call(client, 'list_pages', { limit: 10 })
  t.same((listedPages.data.pages as Array<{ slug: string }>).map((p) => p.slug).sort(), ['notes/alpha', String(captured.data.slug)].sort())

  t.match((await call(client, 'add_tag', { slug: 'notes/alpha', tag: 'travel' })).data, { changed: true })
  t.match((await call(client, 'list_pages', { tag: 'travel' })).data, { pages: [{ slug: 'notes/alpha', tags: ['travel'] }] })
  t.match((await call(client, 'remove_tag', { slug: 'notes/alpha', tag: 'travel' })).data, { changed: true })

  const found = await call(client, 'search', { query: 'zanzibar protocol' })
  t.notOk(found.isError, found.text)
  t.equal((found.data.results as Array<{ slug: string }>)[0]?.slug, 'notes/alpha', 'search finds the page')
  const asked = await call(client, 'query', { query: 'zanzibar' })
  t.notOk(asked.isError, asked.text)
  t.ok((asked.data.results as unknown[]).length >= 1, 'query answers')
  const pack = await call(client, 'context_pack', { question: 'what is the zanzibar protocol?', budget: 500 })
  t.notOk(pack.isError, pack.text)
  t.match(pack.data, { budget: 500, items: [{ n: 1, slug: 'notes/alpha', text: /zanzibar/ }] })
  const answered = await call(client, 'ask', { question: 'what is the zanzibar protocol?', no_llm: true })
  t.notOk(answered.isError, answered.text)
  t.match(answered.data, { mode: 'extractive', model: null, answer: /zanzibar protocol note\. \[1\]/, citations: [{ n: 1, slug: 'notes/alpha' }] })
  t.match(envelope(await call(client, 'context_pack', { question: 'x', budget: 5 })), { code: 'invalid_params' })

  t.same((await call(client, 'code_def', { symbol: 'noSuchFunction' })).data, { results: [] }, 'code_def answers')
  t.same((await call(client, 'code_refs', { symbol: 'zanzibar', language: 'typescript' })).data, { results: [] }, 'code_refs answers')
  t.match((await call(client, 'code_callers', { symbol: 'noSuchFunction', depth: 2 })).data, { symbol: 'noSuchFunction', results: [] })
  t.match((await call(client, 'code_callees', { symbol: 'noSuchFunction' })).data, { symbol: 'noSuchFunction', results: [] })
  t.same((await call(client, 'get_links', { slug: 'notes/alpha' })).data, { links: [], total: 0, offset: 0 })
  t.same((await call(client, 'get_backlinks', { slug: 'notes/alpha' })).data, { links: [], total: 0, offset: 0 })
  t.match((await call(client, 'graph_walk', { slug: 'notes/alpha', depth: 2, direction: 'both' })).data, { start: { slug: 'notes/alpha' }, nodes: [], truncated: false })
  t.ok(
    ((await call(client, 'list_orphans', {})).data.pages as Array<{ slug: string }>).some((p) => p.slug === 'notes/alpha'),
    'list_orphans answers',
  )
  t.same((await call(client, 'list_unresolved', { limit: 5 })).data, { unresolved: [] })
  t.same((await call(client, 'list_entities', { type: 'person' })).data, { entities: [] })
  t.match(envelope(await call(client, 'graph_walk', { slug: 'notes/alpha', direction: 'sideways' })), { code: 'invalid_params' })
  t.match(envelope(await call(client, 'code_callers', { symbol: 'x', depth: 99 })), { code: 'invalid_params' })

  t.match((await call(client, 'list_sources', {})).data, { sources: [{ id: 'default' }] })
  t.match((await call(client, 'get_stats', {})).data, { pages: 2, markdown_pages: 2, jobs: {} })
  t.match(
    (await call(client, 'export_files', { limit: 1 })).data,
    { files: [{ path: /\.md$/, source_id: 'default', page_kind: 'markdown', content: /^---\n/ }], next_offset: 1 },
    'export files a stretch at a time',
  )
  t.match((await call(client, 'get_health', {})).data, { status: 'ok', db: 'ok' })

  const synced = await call(client, 'sync', { all: true, no_embed: true })
  t.notOk(synced.isError, synced.text)
  t.match(synced.data, { all: true, sources: [] })
  t.match((await call(client, 'audit_frontmatter', {})).data, { sources: [], totals: { files: 0 } }, 'audit_frontmatter answers with no sources')
  t.match((await call(client, 'reconcile_links', { dry_run: true })).data, { dry_run: true }, 'reconcile_links previews')
  const badSync = await call(client, 'sync', {})
  t.match(envelope(badSync), { code: 'sync_requires_target' })

  const submitted = await call(client, 'submit_job', { name: 'extract', data: { slugs: [] } })
  t.notOk(submitted.isError, submitted.text)
  const jobId = String(submitted.data.id)
  t.match((await call(client, 'get_job', { id: jobId })).data, { id: jobId, name: 'extract' })
  const jobs = await call(client, 'list_jobs', { limit: 20 })
  t.ok(
    (jobs.data.jobs as Array<{ id: string }>).some((j) => j.id === jobId),
    'list_jobs shows the submitted job',
  )
  t.match((await call(client, 'job_stats', {})).data, { waiting: Number, dead: Number, by_name: { extract: { waiting: Number } } }, 'job_stats counts the submitted job by name')
  t.match(envelope(await call(client, 'get_job', { id: 'no-such-job' })), { code: 'job_not_found' })
  t.match((await call(client, 'retry_job', { id: 'no-such-job' })).data, { id: 'no-such-job', retried: false }, 'retry_job answers')
  t.match((await call(client, 'cancel_job', { id: 'no-such-job' })).data, { id: 'no-such-job', cancelled: false }, 'cancel_job answers')

  t.match((await call(client, 'list_tags', {})).data, { tags: [] }, 'list_tags answers')
  t.match(envelope(await call(client, 'code_symbols', { slug: 'src/nowhere.ts' })), { code: 'page_not_found' })
  const doctor = await call(client, 'run_doctor', {})
  if (options.remote) t.match(envelope(doctor), { code: 'insufficient_scope' }, 'doctor needs the admin scope remotely')
  else t.match(doctor.data, { status: /^(ok|warn|fail)$/, checks: [{ name: 'service' }] }, 'doctor runs for a local caller')
  const workers = await call(client, 'list_workers', {})
  if (options.remote) t.match(envelope(workers), { code: 'insufficient_scope' })
  else t.ok(Array.isArray(workers.data.workers), 'list_workers answers')

  await exerciseMemory(t, client, options)
  await exerciseHistory(t, client, options)
  t.match((await call(client, 'delete_page', { slug: 'notes/alpha' })).data, { deleted: true, trashed: true })
  t.match(envelope(await call(client, 'delete_page', { slug: 'notes/alpha' })), { code: 'page_not_found' })
  const trash = await call(client, 'list_trash', {})
  t.match(trash.data, { pages: [{ slug: 'notes/alpha', deleted_via: options.remote ? 'mcp:delete_page' : 'delete' }] })
  t.match((await call(client, 'restore_page', { page: 'notes/alpha' })).data, { slug: 'notes/alpha', renamed: false })
  t.match((await call(client, 'get_page', { slug: 'notes/alpha' })).data, { title: 'Alpha' }, 'the restored page reads again')
  t.match((await call(client, 'delete_page', { slug: 'notes/alpha' })).data, { trashed: true })
  const hard = await call(client, 'delete_page', { slug: String(captured.data.slug), hard: true, yes: true })
  if (options.remote) t.match(envelope(hard), { code: 'hard_delete_local_only' }, 'a remote caller cannot delete for good')
  else t.match(hard.data, { deleted: true, trashed: false })
  const purged = await call(client, 'purge_trash', {})
  if (options.remote) t.match(envelope(purged), { code: 'insufficient_scope' }, 'purging needs the admin scope')
  else t.match(purged.data, { purged: 1 })

  const backups = await call(client, 'list_backups', {})
  if (options.remote) t.match(envelope(backups), { code: 'insufficient_scope' }, 'listing backups needs the admin scope')
  else t.same(backups.data.backups, [], 'a new brain has no backups yet')
  // Every tool refuses arguments it does not know, and wrong types, as invalid_params.
  for (const name of EXPECTED_TOOLS) {
    const outcome = await call(client, name, { not_an_argument: true })
    t.ok(outcome.isError, `${name} rejects an unknown argument`)
    t.match(envelope(outcome), { class: 'UsageError', code: 'invalid_params', hint: /tools\/list/ }, `${name}: invalid_params`)
  }
  const wrongType = await call(client, 'put_page', { slug: 42, content: ['x'] })
  t.match(envelope(wrongType), { code: 'invalid_params' })
  t.match(String((wrongType.data.error as { message: string }).message), /slug/)
  t.match(envelope(await call(client, 'no_such_tool', {})), { class: 'UsageError', code: 'unknown_tool' })
}

/** Versions of one page through every history tool: list, read, diff, revert (a new version). */
async function exerciseHistory(t: Test, client: Client, options: { remote: boolean }): Promise<void> {
  // Tag changes earlier in the suite kept versions of their own; count from where they left it.
  const before = (await call(client, 'list_versions', { slug: 'notes/alpha' })).data as { total: number }
  const base = before.total
  const changed = await call(client, 'put_page', { slug: 'notes/alpha', content: '---\ntitle: Alpha\n---\n# Alpha\n\nThe zanzibar protocol note, revised.', no_embed: true })
  t.equal(changed.data.status, 'updated')
  const history = await call(client, 'list_versions', { slug: 'notes/alpha' })
  t.notOk(history.isError, history.text)
  const via = options.remote ? 'mcp:put_page' : 'put_page'
  t.match(history.data, {
    slug: 'notes/alpha',
    versions: [
      { number: base + 1, current: true, via, lines_added: 1, lines_removed: 1 },
      { number: base, current: false },
    ],
  })
  t.match((history.data as { versions: Array<{ via: string }> }).versions.at(-1), { via })
  const first = await call(client, 'get_version', { slug: 'notes/alpha', version: 1 })
  t.match(first.data, { version: 1, current: false, markdown: /The zanzibar protocol note\.\n/ })
  t.match(envelope(await call(client, 'get_version', { slug: 'notes/alpha', version: 99 })), { class: 'NotFoundError', code: 'version_not_found' })
  const diff = await call(client, 'diff_versions', { slug: 'notes/alpha' })
  t.match(diff.data, { from: base, to: base + 1, lines_added: 1, lines_removed: 1, diff: /-The zanzibar protocol note\.\n\+The zanzibar protocol note, revised\./ })
  const reverted = await call(client, 'revert_page', { slug: 'notes/alpha', to: 1, no_embed: true })
  t.match(reverted.data, { status: 'updated', reverted_to: 1, version: base + 2 })
  const after = await call(client, 'list_versions', { slug: 'notes/alpha' })
  t.match(after.data, { versions: [{ number: base + 2, current: true, via: options.remote ? 'mcp:revert' : 'revert' }, { number: base + 1 }, { number: base }] })
}

/** recall and remember over MCP: the same answer as the CLI's, and a decision crossing sessions. */
async function exerciseMemory(t: Test, client: Client, options: { remote: boolean }): Promise<void> {
  const person = '---\ntitle: Wren Fenwhistle\ntype: person\naliases: [wren]\nsummary: Founder of Tidecraft.\n---\n\nWren runs Tidecraft.\n'
  t.notOk((await call(client, 'put_page', { slug: 'people/wren-fenwhistle', content: person, no_embed: true })).isError)
  const first = await call(client, 'recall', { text: 'Prep my call with Wren', session_id: 'mcp-a' })
  t.notOk(first.isError, first.text)
  t.match(first.data, { inject: [{ slug: 'people/wren-fenwhistle', source_id: 'default', title: 'Wren Fenwhistle', type: 'person', excerpt: /Founder of Tidecraft/ }], session: 'mcp-a' })
  t.ok(Number(first.data.tokens) > 0, 'the answer counts its tokens')
  t.same((await call(client, 'recall', { text: 'And Wren again?', session_id: 'mcp-a' })).data.inject, [], 'not repeated inside the session')
  const remembered = await call(client, 'remember', { text: 'Decided to wait for the Q3 numbers.', about: ['people/wren-fenwhistle'], session_id: 'mcp-a', harness: 'test-harness' })
  t.notOk(remembered.isError, remembered.text)
  t.match(remembered.data, { written: [{ slug: 'people/wren-fenwhistle', status: 'updated' }], session: 'mcp-a', harness: 'test-harness' })
  const later = await call(client, 'recall', { text: 'where are we with Wren Fenwhistle', session_id: 'mcp-b' })
  t.match(later.data, { inject: [{ slug: 'people/wren-fenwhistle', excerpt: /Decided to wait for the Q3 numbers/ }] }, 'another session sees the decision')
  const about = ['people/wren-fenwhistle']
  t.notOk((await call(client, 'remember', { text: 'Tidecraft seats cost 12 euros.', about, key: 'price' })).isError)
  const repriced = await call(client, 'remember', { text: 'Tidecraft seats cost 15 euros.', about, key: 'price' })
  t.match(repriced.data, { written: [{ entry: /\*\*price:\*\* Tidecraft seats cost 15 euros\.$/, superseded: /12 euros\. \(until \d{4}-\d{2}-\d{2}\)$/ }] }, 'a keyed fact supersedes the earlier one')
  const versions = await call(client, 'list_versions', { slug: 'people/wren-fenwhistle' })
  t.match(versions.data, { versions: [{ current: true, via: options.remote ? 'mcp:remember' : 'remember' }] })
  t.match(envelope(await call(client, 'remember', { text: 'nobody named here' })), { code: 'remember_nothing_named' })
  // A remote caller cannot delete for good, and the trash is counted further on.
  if (!options.remote) t.notOk((await call(client, 'delete_page', { slug: 'people/wren-fenwhistle', hard: true, yes: true })).isError)
}
