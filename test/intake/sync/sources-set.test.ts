// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../../src/db/types.js'
import { listPages } from '../../../src/pages/index.js'
import { getSource, insertSource, updateSource } from '../../../src/intake/sources/source-repository.js'
import { runSync, type SourceSyncResult, type SyncAllResult, type SyncRequest } from '../../../src/intake/sync/index.js'
import { engineTest } from '../../helpers/engines.js'
import { makeRepo } from './helpers.js'

async function sync<R = SourceSyncResult>(db: Database, request: SyncRequest): Promise<R> {
  return (await runSync(db, request, { embedder: null, holder: 'test' })) as R
}

async function slugs(db: Database, sourceId: string): Promise<string[]> {
  return (await listPages(db, { sourceId, limit: 1000 })).map((p) => p.slug).sort()
}

engineTest(t, 'sources set turns sync --all off and on without touching pages', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n' })
  await insertSource(db, { id: 'notes', localPath: repo.dir })
  await sync(db, { sourceId: 'notes' })
  const off = await updateSource(db, 'notes', { syncEnabled: false, name: 'My notes' })
  t.equal(off.config.syncEnabled, false)
  t.equal(off.name, 'My notes')
  t.equal(off.lastCommit, repo.head(), 'the bookmark is kept')
  t.same(await slugs(db, 'notes'), ['a'], 'pages are kept')
  const all = await sync<SyncAllResult>(db, { all: true })
  t.ok(all.skippedSources.some((s) => s.sourceId === 'notes' && s.reason === 'sync_disabled'))
  const on = await updateSource(db, 'notes', { syncEnabled: true })
  t.equal(on.config.syncEnabled, true)
  t.equal(on.config.strategy, 'markdown', 'options not given keep their value')
  await t.rejects(updateSource(db, 'missing', { syncEnabled: true }), { code: 'source_not_found' })
})

engineTest(t, 'a new strategy or glob list makes the next sync walk the whole tree', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n', 'drafts/b.md': '# B\n', 'src/tool.py': 'def run():\n    return 1\n' })
  await insertSource(db, { id: 'mixed', localPath: repo.dir })
  await sync(db, { sourceId: 'mixed' })
  t.same(await slugs(db, 'mixed'), ['a', 'drafts/b'])
  await updateSource(db, 'mixed', { strategy: 'auto' })
  t.equal((await getSource(db, 'mixed'))!.chunkerVersion, null, 'the recorded chunker version is cleared')
  const walked = await sync(db, { sourceId: 'mixed' })
  t.equal(walked.mode, 'full', 'HEAD did not move, yet the whole tree is walked')
  t.same(await slugs(db, 'mixed'), ['a', 'drafts/b', 'src/tool.py'], 'code now imported')
  await updateSource(db, 'mixed', { exclude: ['drafts/**'] })
  await sync(db, { sourceId: 'mixed' })
  t.same(await slugs(db, 'mixed'), ['a', 'src/tool.py'], 'newly excluded pages removed')
  await updateSource(db, 'mixed', { syncEnabled: false })
  t.equal((await sync(db, { sourceId: 'mixed' })).status, 'up_to_date', 'a change that selects nothing new does not force a walk')
})
