// test-runner: shares a process
import t from 'tap'
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { listVersions, pruneHistory, purgeTrash } from '../../src/history/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { dispatchTool } from '../../src/mcp/index.js'
import type { CallContext } from '../../src/operations/call-context.js'
import { findPage, putPage, listChunks } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { engineTest } from '../helpers/engines.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'brain-history-'))

function context(db: Database, options: { remote?: boolean; caller?: string } = {}): CallContext {
  const config = loadConfig({ env: { BRAIN_HOME: tmp(), BRAIN_EMBEDDING_PROVIDER: 'local' } })
  return {
    brain: async () => ({ db, config }),
    logger: memoryLogger(),
    dryRun: false,
    remote: options.remote ?? false,
    scopes: options.remote ? ['read', 'write'] : null,
    remoteSlugPrefixes: [],
    caller: options.caller ?? null,
  }
}

async function tool(ctx: CallContext, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await dispatchTool(ctx, name, args)
  return outcome.result.structuredContent
}

const put = (db: Database, slug: string, content: string) => putPage({ db, logger: memoryLogger(), repoPath: null, remote: false }, { slug, content })

type Shown = { number: number; current: boolean; via: string; by: string | null; lines_added: number; lines_removed: number; bytes: number }

engineTest(t, 'each write path keeps the content it replaces; identical content keeps nothing', async (t, { db }) => {
  const ctx = context(db)
  await put(db, 'notes/a', '# A\n\none\n')
  t.same(await listVersions(db, (await findPage(db, 'default', 'notes/a'))!.id), [], 'a new page has no earlier version')
  t.equal((await put(db, 'notes/a', '# A\n\none\n')).status, 'skipped')
  t.same(await listVersions(db, (await findPage(db, 'default', 'notes/a'))!.id), [], 'identical content makes no version')

  await put(db, 'notes/a', '# A\n\none\ntwo\n')
  await tool(ctx, 'capture', { text: '# A\n\nreplaced by capture\n', slug: 'notes/a', no_embed: true })
  await tool(context(db, { remote: true, caller: 'agent-7' }), 'put_page', { slug: 'notes/a', content: '# A\n\nfrom an agent\n', no_embed: true })
  const folder = tmp()
  mkdirSync(join(folder, 'notes'))
  writeFileSync(join(folder, 'notes/a.md'), '# A\n\nfrom a file\n')
  await importFolder(db, folder, { sourceId: 'default', embedder: null, strategy: 'markdown' })
  await put(db, 'notes/a', '# A\n\nlast\n')

  const history = (await tool(ctx, 'list_versions', { slug: 'notes/a' })).versions as Shown[]
  t.same(
    history.map((v) => v.number),
    [6, 5, 4, 3, 2, 1],
    'newest first, numbered from 1',
  )
  t.same(
    history.map((v) => v.via),
    ['put_page', 'import', 'mcp:put_page', 'capture', 'put_page', 'put_page'],
    'each version says what wrote it',
  )
  t.same(
    history.map((v) => v.by),
    [null, null, 'agent-7', null, null, null],
    'a remote write records its token name',
  )
  t.ok(history[0]!.current && history.slice(1).every((v) => !v.current), 'only the newest is current')
  t.match(history[4], { lines_added: 1, lines_removed: 0 }, 'version 2 added one line to version 1')
  const v1 = await tool(ctx, 'get_version', { slug: 'notes/a', version: 1 })
  t.match(v1, { version: 1, current: false, markdown: /^---\ntitle: A\ntype: note\n---\n# A\n\none\n$/ }, 'a version is the page as an export writes it')
  t.ok(history[5]!.bytes > 0 && history[5]!.bytes < Buffer.byteLength(String(v1.markdown)), 'a version counts the bytes of its body')
})

engineTest(t, 'diff and revert, and a revert of a revert, never rewrite history', async (t, { db }) => {
  const ctx = context(db)
  await put(db, 'notes/d', '# D\n\nalpha\nbeta\n')
  await put(db, 'notes/d', '# D\n\nalpha\ngamma\n')
  const last = await tool(ctx, 'diff_versions', { slug: 'notes/d' })
  t.match(last, { from: 1, to: 2, lines_added: 1, lines_removed: 1 })
  t.match(String(last.diff), /\n-beta\n\+gamma\n/)
  t.match(String(last.diff), /^-{3} notes\/d@1\n\+{3} notes\/d@2 \(current\)/m)
  t.match(await tool(ctx, 'diff_versions', { slug: 'notes/d', from: 2, to: 2 }), { diff: '' })
  t.match(await tool(ctx, 'diff_versions', { slug: 'notes/d', from: 7 }), { error: { code: 'version_not_found' } })

  t.match(await tool(ctx, 'revert_page', { slug: 'notes/d', to: 1, no_embed: true }), { status: 'updated', reverted_to: 1, version: 3 })
  t.match((await findPage(db, 'default', 'notes/d'))!.compiledTruth, /beta/)
  t.match(await tool(ctx, 'revert_page', { slug: 'notes/d', to: 2, no_embed: true }), { status: 'updated', reverted_to: 2, version: 4 }, 'a revert can be reverted')
  t.match((await findPage(db, 'default', 'notes/d'))!.compiledTruth, /gamma/)
  const history = (await tool(ctx, 'list_versions', { slug: 'notes/d' })).versions as Shown[]
  t.same(
    history.map((v) => [v.number, v.via]),
    [
      [4, 'revert'],
      [3, 'revert'],
      [2, 'put_page'],
      [1, 'put_page'],
    ],
  )
  t.match(await tool(ctx, 'revert_page', { slug: 'notes/d', to: 4 }), { status: 'skipped' }, 'reverting to the current content changes nothing')
  t.match(await tool(ctx, 'revert_page', { slug: 'notes/d', to: 99 }), { error: { class: 'NotFoundError', code: 'version_not_found' } })
  t.equal(((await tool(ctx, 'list_versions', { slug: 'notes/d' })).versions as Shown[]).length, 4, 'a failed revert writes nothing')
})

async function embeddingDims(db: Database): Promise<number> {
  const { rows } = await db.query<{ typmod: number }>(`SELECT atttypmod AS typmod FROM pg_attribute WHERE attrelid = 'content_chunks'::regclass AND attname = 'embedding'`)
  return rows[0]!.typmod > 0 ? rows[0]!.typmod : 8
}

engineTest(t, 'delete moves a page to the trash; restore brings back chunks, tags, links, embeddings and search', async (t, { db }) => {
  const ctx = context(db)
  await put(db, 'notes/target', '---\ntags: [keep]\n---\n# Target\n\nThe quokka migration plan.\n')
  await put(db, 'notes/other', '# Other\n\nSee the target.\n')
  const target = (await findPage(db, 'default', 'notes/target'))!
  const other = (await findPage(db, 'default', 'notes/other'))!
  await db.query(`INSERT INTO links (from_page_id, to_page_id, link_type) VALUES ($1, $2, 'references'), ($2, $1, 'references')`, [other.id, target.id])
  const dims = await embeddingDims(db)
  const vector = `[${Array.from({ length: dims }, (_, i) => ((i % 7) / 7).toFixed(6)).join(',')}]`
  await db.query(`UPDATE content_chunks SET embedding = $2::vector, model = 'test-model', embedded_at = now() WHERE page_id = $1`, [target.id, vector])
  const before = await db.query<{ id: number; chunk_text: string; embedding: string }>(
    'SELECT id, chunk_text, embedding::text AS embedding FROM content_chunks WHERE page_id = $1 ORDER BY chunk_index',
    [target.id],
  )
  await put(db, 'notes/target', '---\ntags: [keep]\n---\n# Target\n\nThe quokka migration plan, v2.\n')
  const searchSlugs = async () => ((await tool(ctx, 'search', { query: 'quokka migration' })).results as Array<{ slug: string }>).map((r) => r.slug)
  t.same(await searchSlugs(), ['notes/target'])
  const embeddedBefore = await db.query<{ id: number; embedding: string | null }>('SELECT id, embedding::text AS embedding FROM content_chunks WHERE page_id = $1 ORDER BY chunk_index', [target.id])

  t.match(await tool(ctx, 'delete_page', { slug: 'notes/target' }), { deleted: true, trashed: true })
  t.equal(await findPage(db, 'default', 'notes/target'), null, 'gone from get at once')
  t.same(await searchSlugs(), [], 'gone from search')
  t.same(
    ((await tool(ctx, 'list_pages', {})).pages as Array<{ slug: string }>).map((p) => p.slug),
    ['notes/other'],
    'gone from list',
  )
  t.same((await tool(ctx, 'get_backlinks', { slug: 'notes/other' })).links, [], 'its links are gone')
  t.match(await tool(ctx, 'list_trash', {}), { pages: [{ slug: 'notes/target', title: 'Target', deleted_via: 'delete' }] })

  const restored = await tool(ctx, 'restore_page', { page: 'notes/target' })
  t.match(restored, { slug: 'notes/target', renamed: false, page_id: target.id, links: 2 })
  const page = (await findPage(db, 'default', 'notes/target'))!
  t.same(page.tags, ['keep'])
  t.match(page.compiledTruth, /v2/)
  const after = await db.query<{ id: number; embedding: string | null }>('SELECT id, embedding::text AS embedding FROM content_chunks WHERE page_id = $1 ORDER BY chunk_index', [target.id])
  t.same(after.rows, embeddedBefore.rows, 'the same chunks with the same embeddings')
  t.equal((await listChunks(db, page.id)).length, before.rows.length)
  t.same(await searchSlugs(), ['notes/target'], 'search finds it again')
  t.equal(((await tool(ctx, 'get_backlinks', { slug: 'notes/target' })).links as unknown[]).length, 1, 'links in and out are back')
  t.equal(((await tool(ctx, 'list_versions', { slug: 'notes/target' })).versions as Shown[]).length, 2, 'its history came back with it')
  t.match(await tool(ctx, 'list_trash', {}), { pages: [] })
  t.match(await tool(ctx, 'restore_page', { page: 'notes/target' }), { error: { code: 'trash_entry_not_found' } })
})

engineTest(t, 'a slug is free while its page is in the trash; the restore takes a new one and says so', async (t, { db }) => {
  const ctx = context(db)
  await put(db, 'notes/reuse', '# Old\n\nold text\n')
  const deleted = await tool(ctx, 'delete_page', { slug: 'notes/reuse' })
  await put(db, 'notes/reuse', '# New\n\nnew text\n')
  const restored = await tool(ctx, 'restore_page', { page: String(deleted.trash_id) })
  t.match(restored, { slug: 'notes/reuse-restored', original_slug: 'notes/reuse', renamed: true })
  t.match((await findPage(db, 'default', 'notes/reuse'))!.title, 'New')
  t.match((await findPage(db, 'default', 'notes/reuse-restored'))!.title, 'Old')
})

engineTest(t, 'purge, retention and hard delete', async (t, { db }) => {
  const ctx = context(db)
  for (let i = 1; i <= 5; i++) await put(db, 'notes/many', `# Many\n\nversion ${i}\n`)
  await db.query(`INSERT INTO config (key, value) VALUES ('history.max_versions', '2'), ('history.trash_retention', '1d')`)
  await put(db, 'notes/gone', '# Gone\n\nx\n')
  await put(db, 'notes/gone', '# Gone\n\ny\n')
  await tool(ctx, 'delete_page', { slug: 'notes/gone' })
  await put(db, 'notes/fresh', '# Fresh\n')
  await tool(ctx, 'delete_page', { slug: 'notes/fresh' })
  await db.query(`UPDATE page_trash SET deleted_at = now() - interval '2 days' WHERE slug = 'notes/gone'`)
  const pruned = await pruneHistory(db)
  t.same(pruned, { versions_pruned: 2, trash_purged: 1 })
  const many = (await tool(ctx, 'list_versions', { slug: 'notes/many' })).versions as Shown[]
  t.same(
    many.map((v) => v.number),
    [5, 4, 3],
    'the newest two versions and the current content stay',
  )
  t.match(await tool(ctx, 'list_trash', {}), { pages: [{ slug: 'notes/fresh' }] })
  const orphans = await db.query(`SELECT 1 FROM page_versions v WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.id = v.page_id)`)
  t.equal(orphans.rows.length, 0, 'purging a page removes its versions')
  t.match(await tool(ctx, 'restore_page', { page: 'notes/gone' }), { error: { class: 'NotFoundError', code: 'trash_entry_not_found' } }, 'a purged page cannot come back')

  t.match(await tool(ctx, 'delete_page', { slug: 'notes/many', hard: true }), { error: { class: 'ConfirmationRequired', code: 'hard_delete_unconfirmed' } })
  t.ok(await findPage(db, 'default', 'notes/many'), 'an unconfirmed hard delete deletes nothing')
  t.match(await tool(ctx, 'delete_page', { slug: 'notes/many', hard: true, yes: true }), { deleted: true, trashed: false })
  t.equal((await db.query(`SELECT 1 FROM page_versions WHERE slug = 'notes/many'`)).rows.length, 0, 'a hard delete takes the history too')
  t.match(await tool(ctx, 'list_trash', {}), { pages: [{ slug: 'notes/fresh' }] }, 'and leaves nothing in the trash')
  t.same(await purgeTrash(db, null), { purged: 1, versionsRemoved: 0 })
})

engineTest(t, 'code pages keep no versions unless history.version_code is on', async (t, { db }) => {
  const folder = tmp()
  writeFileSync(join(folder, 'calc.py'), 'def add(a, b):\n    return a + b\n')
  await importFolder(db, folder, { sourceId: 'default', embedder: null, strategy: 'code' })
  writeFileSync(join(folder, 'calc.py'), 'def add(a, b):\n    return b + a\n')
  await importFolder(db, folder, { sourceId: 'default', embedder: null, strategy: 'code' })
  const id = (await findPage(db, 'default', 'calc.py'))!.id
  t.same(await listVersions(db, id), [])
  await db.query(`INSERT INTO config (key, value) VALUES ('history.version_code', 'true')`)
  writeFileSync(join(folder, 'calc.py'), 'def add(a, b):\n    return a + b + 0\n')
  await importFolder(db, folder, { sourceId: 'default', embedder: null, strategy: 'code' })
  t.match(await listVersions(db, id), [{ number: 1, writtenVia: 'import' }])
})

engineTest(t, "sync's deletions go to the trash and restore from it", async (t, { db }) => {
  const { makeRepo } = await import('../intake/sync/helpers.js')
  const { insertSource } = await import('../../src/intake/sources/source-repository.js')
  const { runSync } = await import('../../src/intake/sync/index.js')
  const repo = makeRepo({ 'notes/kept.md': '# Kept\n', 'notes/removed.md': '# Removed\n\nGone from git.\n' })
  await insertSource(db, { id: 'notes', localPath: repo.dir, strategy: 'auto' })
  await runSync(db, { sourceId: 'notes' }, { embedder: null, holder: 'test' })
  repo.write('notes/kept.md', '# Kept\n\nEdited in git.\n').remove('notes/removed.md').commit('edit and remove')
  await runSync(db, { sourceId: 'notes' }, { embedder: null, holder: 'test' })
  const ctx = context(db)
  t.match(await tool(ctx, 'list_trash', {}), { pages: [{ slug: 'notes/removed', source_id: 'notes', deleted_via: 'sync' }] })
  t.match(await tool(ctx, 'list_versions', { slug: 'notes/kept' }), {
    versions: [
      { number: 2, via: 'sync' },
      { number: 1, via: 'sync' },
    ],
  })
  t.match(await tool(ctx, 'restore_page', { page: 'notes/removed', source: 'notes' }), { slug: 'notes/removed', source_id: 'notes' })
  t.match((await findPage(db, 'notes', 'notes/removed'))!.compiledTruth, /Gone from git/)
})

engineTest(t, 'ingestion keeps the content it replaces too', async (t, { db }) => {
  const { default: ingest } = await import('../../workers/ingest-capture.js')
  const config = loadConfig({ env: { BRAIN_HOME: tmp(), BRAIN_EMBEDDING_PROVIDER: 'local' } })
  const run = (content: string) =>
    ingest({
      jobId: '1',
      name: 'ingest_capture',
      signal: new AbortController().signal,
      db,
      config,
      logger: memoryLogger(),
      progress: () => undefined,
      data: { slug: 'inbox/feed-item', noEmbed: true, event: { content_type: 'text/markdown', content, source_id: 'feed' } },
    })
  await run('# Feed\n\nfirst edition\n')
  await run('# Feed\n\nsecond edition\n')
  const versions = (await tool(context(db), 'list_versions', { slug: 'inbox/feed-item' })).versions as Shown[]
  t.same(
    versions.map((v) => [v.number, v.via]),
    [
      [2, 'ingest_capture'],
      [1, 'ingest_capture'],
    ],
  )
  t.match((await tool(context(db), 'get_version', { slug: 'inbox/feed-item', version: 1 })).markdown, /first edition/)
})

engineTest(t, 'a trashed page leaves its wikilinks unresolved and a restore resolves them again', async (t, { db }) => {
  const ctx = context(db)
  await put(db, 'notes/a', '# A\n\nSee [[notes/b]].\n')
  await put(db, 'notes/b', '# B\n\nWaiting for [[notes/not-yet]] and back to [[notes/a]].\n')
  const backlinks = async () => ((await tool(ctx, 'get_backlinks', { slug: 'notes/b' })).links as Array<{ from_slug: string }>).map((l) => l.from_slug)
  t.same(await backlinks(), ['notes/a'])
  await tool(ctx, 'delete_page', { slug: 'notes/b' })
  const out = (await tool(ctx, 'get_links', { slug: 'notes/a' })).links as Array<{ to_slug: string | null; target_text: string }>
  t.match(out, [{ to_slug: null, target_text: 'notes/b' }], 'the link waits, unresolved')
  await tool(ctx, 'restore_page', { page: 'notes/b' })
  t.same(await backlinks(), ['notes/a'], 'restored, the link resolves again')
  const own = (await tool(ctx, 'get_links', { slug: 'notes/b' })).links as Array<{ to_slug: string | null; target_text: string }>
  t.same(
    own.map((l) => [l.target_text, l.to_slug]).sort(),
    [
      ['notes/a', 'notes/a'],
      ['notes/not-yet', null],
    ],
    'its own links come back, the unresolved one too',
  )
})
