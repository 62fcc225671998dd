// test-runner: shares a process
import t from 'tap'
import { symlinkSync, mkdtempSync, writeFileSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readConfigValue } from '../../../src/config/index.js'
import type { Database } from '../../../src/db/types.js'
import type { EmbeddingProvider } from '../../../src/embedding/index.js'
import { ProviderError } from '../../../src/errors/index.js'
import { findPage, importPage, listPages } from '../../../src/pages/index.js'
import { getSource, insertSource, listSources } from '../../../src/intake/sources/source-repository.js'
import { listTrash, restoreFromTrash } from '../../../src/history/index.js'
import { removeSource } from '../../../src/intake/sync/remove-source.js'
import { runSync, type SourceSyncResult, type SyncAllResult, type SyncRequest } from '../../../src/intake/sync/index.js'
import { engineTest } from '../../helpers/engines.js'
import { makeRepo } from './helpers.js'

async function sync<R = SourceSyncResult>(db: Database, request: SyncRequest, embedder: EmbeddingProvider | null = null): Promise<R> {
  return (await runSync(db, request, { embedder, holder: 'test' })) as R
}

async function slugs(db: Database, sourceId: string): Promise<string[]> {
  return (await listPages(db, { sourceId, limit: 1000 })).map((p) => p.slug).sort()
}

engineTest(t, 'sync --all visits sources with a path and skips syncEnabled: false', async (t, { db }) => {
  const on = makeRepo({ 'a.md': '# A\n' })
  const off = makeRepo({ 'b.md': '# B\n' })
  await insertSource(db, { id: 'on', localPath: on.dir })
  await insertSource(db, { id: 'off', localPath: off.dir, syncEnabled: false })
  await db.query(`INSERT INTO sources (id, name) VALUES ('pathless', 'pathless')`)
  const result = await sync<SyncAllResult>(db, { all: true })
  t.equal(result.all, true)
  t.equal(result.status, 'synced')
  t.same(
    result.sources.map((s) => s.sourceId),
    ['on'],
  )
  t.same(result.skippedSources, [
    { sourceId: 'default', reason: 'no_local_path' },
    { sourceId: 'off', reason: 'sync_disabled' },
    { sourceId: 'pathless', reason: 'no_local_path' },
  ])
  t.equal(result.added, 1)
  t.same(await slugs(db, 'off'), [])
  t.equal((await getSource(db, 'on'))!.lastCommit, on.head(), 'each source keeps its own bookmark')
  t.same(await sync(db, { sourceId: 'off' }).then((r) => r.added), 1, 'an explicit --source still syncs a disabled source')
  const again = await sync<SyncAllResult>(db, { all: true })
  t.equal(again.status, 'up_to_date')
})

engineTest(t, 'sync --all reports a broken source and still syncs the others', async (t, { db }) => {
  const good = makeRepo({ 'a.md': '# A\n' })
  const plain = mkdtempSync(join(tmpdir(), 'brain-plain-'))
  await insertSource(db, { id: 'good', localPath: good.dir })
  await insertSource(db, { id: 'plain', localPath: realpathSync(plain) })
  const result = await sync<SyncAllResult>(db, { all: true })
  t.equal(result.status, 'partial')
  t.same(
    result.errors.map((e) => [e.sourceId, e.code]),
    [['plain', 'not_a_git_repository']],
  )
  t.same(await slugs(db, 'good'), ['a'])
})

engineTest(t, 'a directory uses its registered source bookmark, else the global sync.last_commit', async (t, { db }) => {
  const loose = makeRepo({ 'loose.md': '# Loose\n' })
  const result = await sync(db, { repo: loose.dir })
  t.equal(result.bookmarkScope, 'global')
  t.equal(result.sourceId, 'default')
  t.equal(await readConfigValue(db, 'sync.last_commit'), loose.head())
  t.equal((await getSource(db, 'default'))!.chunkerVersion, '4')
  t.same(await slugs(db, 'default'), ['loose'])

  const registered = makeRepo({ 'reg.md': '# Reg\n' })
  await insertSource(db, { id: 'reg', localPath: realpathSync(registered.dir) })
  const viaDir = await sync(db, { repo: join(registered.dir, '.') })
  t.equal(viaDir.bookmarkScope, 'source')
  t.equal(viaDir.sourceId, 'reg')
  t.equal((await getSource(db, 'reg'))!.lastCommit, registered.head())
  t.equal(await readConfigValue(db, 'sync.last_commit'), loose.head(), 'the global bookmark is untouched')
  await t.rejects(sync(db, {}), { code: 'sync_requires_repo' })
  await db.query(`INSERT INTO config (key, value) VALUES ('sync.repo_path', $1)`, [loose.dir])
  loose.write('more.md', '# More\n').commit('more')
  const bare = await sync(db, {})
  t.match(bare, { bookmarkScope: 'global', added: 1, repo: realpathSync(loose.dir) }, 'a bare sync follows the configured sync.repo_path')
  await t.rejects(sync(db, { sourceId: 'nope' }), { code: 'source_not_found' })
  await t.rejects(sync(db, { all: true, sourceId: 'reg' }), { code: 'sync_conflicting_targets' })
})

engineTest(t, 'sources remove moves that source pages to the trash, and nothing of other sources', async (t, { db }) => {
  const a = makeRepo({ 'shared.md': '# A shared\n\nSee src/lib/util.ts for details.\n', 'src/lib/util.ts': 'export const u = 1\n' })
  const b = makeRepo({ 'shared.md': '# B shared\n' })
  await insertSource(db, { id: 'a', localPath: a.dir, strategy: 'auto' })
  await insertSource(db, { id: 'b', localPath: b.dir })
  await sync<SyncAllResult>(db, { all: true })
  await importPage(db, { slug: 'shared', kind: 'markdown', content: '# default shared\n' })
  const pageA = await findPage(db, 'a', 'shared')
  const removed = await removeSource(db, 'a')
  t.same(removed, { id: 'a', localPath: a.dir, pages: 2, trashed: 2 })
  t.equal(await getSource(db, 'a'), null)
  const orphans = await db.query('SELECT 1 FROM content_chunks WHERE page_id = $1', [pageA!.id])
  t.equal(orphans.rowCount, 0, 'chunks went with the pages')
  t.same(await slugs(db, 'b'), ['shared'])
  t.same(await slugs(db, 'default'), ['shared'])
  t.same(
    (await listSources(db)).map((s) => s.id),
    ['b', 'default'],
  )
  await t.rejects(removeSource(db, 'default'), { code: 'source_protected' })
  await t.rejects(removeSource(db, 'a'), { code: 'source_not_found' })
  const trashed = await listTrash(db, { sourceId: 'a' })
  t.same(trashed.map((e) => e.slug).sort(), ['shared', 'src/lib/util.ts'], 'the pages wait in the trash')
  await t.rejects(restoreFromTrash(db, { sourceId: 'a', slug: 'shared' }), { code: 'source_not_found' }, 'a restore needs the source back')
  await insertSource(db, { id: 'a', localPath: a.dir, strategy: 'auto' })
  const restored = await restoreFromTrash(db, { sourceId: 'a', slug: 'shared' })
  t.equal(restored.pageId, pageA!.id, 'added again, the source gets its page back under the same id')
  t.match((await findPage(db, 'a', 'shared'))?.compiledTruth, /A shared/)
})

engineTest(t, 'a source in a subdirectory of a repository syncs only that subtree; symlinks are never followed', async (t, { db }) => {
  const outside = mkdtempSync(join(tmpdir(), 'brain-outside-'))
  writeFileSync(join(outside, 'secret.md'), '# secret\n')
  const repo = makeRepo({ 'brain/notes/a.md': '# A\n', 'other/b.md': '# B\n' }, { commit: false })
  symlinkSync(join(outside, 'secret.md'), join(repo.dir, 'brain/notes/link.md'))
  symlinkSync(outside, join(repo.dir, 'brain/linked-dir'))
  repo.commit('init')
  await insertSource(db, { id: 'sub', localPath: join(realpathSync(repo.dir), 'brain') })
  const result = await sync(db, { sourceId: 'sub' })
  t.same(await slugs(db, 'sub'), ['notes/a'])
  t.equal(result.added, 1)
  repo.write('brain/notes/c.md', '# C\n').write('other/d.md', '# D\n')
  repo.commit('more')
  const next = await sync(db, { sourceId: 'sub' })
  t.equal(next.added, 1)
  t.same(await slugs(db, 'sub'), ['notes/a', 'notes/c'])
})

engineTest(t, 'an unreachable bookmark triggers a full walk that removes pages whose files are gone', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n', 'b.md': '# B\n' })
  await insertSource(db, { id: 'r', localPath: repo.dir })
  await sync(db, { sourceId: 'r' })
  await importPage(db, { slug: 'manual', sourceId: 'r', kind: 'markdown', content: '# written by put, not by sync\n' })
  repo.remove('b.md')
  repo.commit('drop b')
  await db.query(`UPDATE sources SET last_commit = $1 WHERE id = 'r'`, ['f'.repeat(40)])
  const result = await sync(db, { sourceId: 'r' })
  t.equal(result.fullWalkReason, 'bookmark_unreachable')
  t.same(result.deletedSlugs, ['b'])
  t.same(await slugs(db, 'r'), ['a', 'manual'], 'pages sync did not write are never reconciled away')
})

engineTest(t, 'a failing embedding provider leaves NULL embeddings and the sync goes on', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n\nSome text.\n', 'b.md': '# B\n\nMore text.\n' })
  const failing: EmbeddingProvider = {
    name: 'openai',
    model: 'test-model',
    embed: async () => {
      throw new ProviderError('embedding_unavailable', 'The embedding service is down.')
    },
  }
  const result = await sync(db, { repo: repo.dir }, failing)
  t.equal(result.status, 'synced')
  t.equal(result.added, 2)
  t.equal(result.embedded, 0)
  t.equal(result.embedError?.code, 'embedding_unavailable')
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_chunks WHERE embedding IS NULL')
  t.ok(rows[0]!.n >= 2, 'chunks are stored, waiting for embed --stale')
  t.equal(result.toCommit, repo.head())
})
