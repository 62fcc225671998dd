// test-runner: shares a process
import t from 'tap'
import type { Database } from '../../../src/db/types.js'
import { findPage, listChunks, listPages } from '../../../src/pages/index.js'
import { insertSource } from '../../../src/intake/sources/source-repository.js'
import { listFailures, runSync, type SourceSyncResult, type SyncRequest } from '../../../src/intake/sync/index.js'
import { engineTest } from '../../helpers/engines.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { migrationsDir } from '../../../src/db/migrate.js'
import { makeRepo } from './helpers.js'

async function sync(db: Database, request: SyncRequest): Promise<SourceSyncResult> {
  return (await runSync(db, request, { embedder: null, holder: 'test' })) as SourceSyncResult
}

async function slugs(db: Database, sourceId: string): Promise<string[]> {
  return (await listPages(db, { sourceId, limit: 1000 })).map((p) => p.slug).sort()
}

engineTest(t, 'first sync, up_to_date, then add, modify, delete and rename in one commit', async (t, { db }) => {
  const repo = makeRepo({
    'notes/Ada Lovelace.md': '# Ada\n\nFirst programmer.\n',
    'notes/keep.md': '# Keep\n\nUnchanged.\n',
    'notes/old-name.md': '# Moving\n\nThis note is renamed without edits.\n',
    'notes/doomed.md': '# Doomed\n\nDeleted soon.\n',
    'src/math.py': 'def add(a, b):\n    return a + b\n',
    'README.md': '# not a note',
    'ops/runbook.md': '# not synced',
    '.raw/capture.md': '# not synced',
  })
  await insertSource(db, { id: 'notes', localPath: repo.dir, strategy: 'auto' })
  const first = await sync(db, { sourceId: 'notes' })
  t.equal(first.status, 'synced')
  t.equal(first.mode, 'full')
  t.equal(first.fullWalkReason, 'first_sync')
  t.equal(first.added, 5)
  t.equal(first.toCommit, repo.head())
  t.same(await slugs(db, 'notes'), ['notes/ada-lovelace', 'notes/doomed', 'notes/keep', 'notes/old-name', 'src/math.py'])

  const again = await sync(db, { sourceId: 'notes' })
  t.equal(again.status, 'up_to_date', 'bookmark equals HEAD')
  t.equal(again.added + again.modified + again.skipped, 0)

  const moving = await findPage(db, 'notes', 'notes/old-name')
  const movingChunks = await listChunks(db, moving!.id)
  repo.write('notes/new.md', '# New\n\nJust added.\n')
  repo.write('notes/Ada Lovelace.md', '# Ada\n\nFirst programmer. Wrote the first algorithm.\n')
  repo.remove('notes/doomed.md')
  repo.move('notes/old-name.md', 'archive/renamed.md')
  const head = repo.commit('edit')
  const incremental = await sync(db, { sourceId: 'notes' })
  t.equal(incremental.mode, 'incremental')
  t.same(
    { added: incremental.added, modified: incremental.modified, deleted: incremental.deleted, renamed: incremental.renamed, failed: incremental.failed },
    { added: 1, modified: 1, deleted: 1, renamed: 1, failed: 0 },
  )
  t.equal(incremental.fromCommit, first.toCommit)
  t.equal(incremental.toCommit, head)
  t.same(await slugs(db, 'notes'), ['archive/renamed', 'notes/ada-lovelace', 'notes/keep', 'notes/new', 'src/math.py'])
  const moved = await findPage(db, 'notes', 'archive/renamed')
  t.equal(moved!.id, moving!.id, 'a rename moves the page: same id, chunks kept')
  t.same(
    (await listChunks(db, moved!.id)).map((c) => c.id),
    movingChunks.map((c) => c.id),
  )
  t.same(incremental.touchedSlugs.sort(), ['archive/renamed', 'notes/ada-lovelace', 'notes/new'])
  t.same(incremental.deletedSlugs, ['notes/doomed'])
  t.match((await findPage(db, 'notes', 'notes/ada-lovelace'))!.compiledTruth, /first algorithm/)
})

engineTest(t, 'renaming and deleting code files resolves code slugs; a rename into an excluded folder removes the page', async (t, { db }) => {
  const repo = makeRepo({ 'src/A.ts': 'export const a = 1\n', 'src/B.ts': 'export const b = 2\n', 'notes/x.md': '# X\n' })
  await insertSource(db, { id: 'code', localPath: repo.dir, strategy: 'auto' })
  await sync(db, { sourceId: 'code' })
  repo.move('src/A.ts', 'lib/A2.ts').remove('src/B.ts').move('notes/x.md', 'ops/x.md')
  repo.commit('shuffle')
  const result = await sync(db, { sourceId: 'code' })
  t.equal(result.renamed, 1)
  t.equal(result.deleted, 2, 'src/B.ts deleted; notes/x.md renamed into ops/ is no longer syncable')
  t.same(await slugs(db, 'code'), ['lib/A2.ts'])
  const page = await findPage(db, 'code', 'lib/A2.ts')
  t.equal(page!.title, 'lib/A2.ts', 'the renamed code page is re-imported under its new path')
})

engineTest(t, 'uncommitted changes wait for their commit', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n\ncommitted\n' })
  await sync(db, { repo: repo.dir })
  repo.write('a.md', '# A\n\nhalf-written edit\n').write('b.md', '# B untracked\n')
  const result = await sync(db, { repo: repo.dir })
  t.equal(result.status, 'up_to_date')
  t.match((await findPage(db, 'default', 'a'))!.compiledTruth, /committed/)
  t.equal(await findPage(db, 'default', 'b'), null)
  repo.commit('finish')
  const after = await sync(db, { repo: repo.dir })
  t.equal(after.modified, 1)
  t.equal(after.added, 1)
})

engineTest(t, 'a chunker-version change forces a full walk even when HEAD has not moved', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n', 'src/x.go': 'package x\n\nfunc X() {}\n' })
  await insertSource(db, { id: 's', localPath: repo.dir, strategy: 'auto' })
  await sync(db, { sourceId: 's' })
  await db.query(`UPDATE sources SET chunker_version = '3' WHERE id = 's'`)
  const result = await sync(db, { sourceId: 's' })
  t.equal(result.status, 'synced')
  t.equal(result.mode, 'full')
  t.equal(result.fullWalkReason, 'chunker_version')
  t.equal(result.skipped, 2, 'both files walked (their content is unchanged)')
  const { rows } = await db.query<{ chunker_version: string; last_commit: string }>(`SELECT chunker_version, last_commit FROM sources WHERE id = 's'`)
  t.same(rows[0], { chunker_version: '4', last_commit: repo.head() }, 'the new version is recorded with the bookmark')
  t.equal((await sync(db, { sourceId: 's' })).status, 'up_to_date')
})

engineTest(t, 'a source synced before plain-text notes were imported walks its tree once and imports them', async (t, { db }) => {
  const files = { 'a.md': '# A\n', 'notes/list.txt': 'Herons and egrets\n', 'src/x.go': 'package x\n\nfunc X() {}\n' }
  await insertSource(db, { id: 'notes', localPath: makeRepo(files).dir, strategy: 'auto' })
  await insertSource(db, { id: 'code', localPath: makeRepo(files).dir, strategy: 'code' })
  await sync(db, { sourceId: 'notes' })
  await sync(db, { sourceId: 'code' })
  // As an older release left it: the bookmark at HEAD, and no page for the text file.
  await db.query(`DELETE FROM pages WHERE slug = 'notes/list.txt'`)
  await db.exec(readFileSync(join(migrationsDir(), '0540_walk_for_plain_text_notes.sql'), 'utf8'))
  const notes = await sync(db, { sourceId: 'notes' })
  t.match(notes, { status: 'synced', mode: 'full', fullWalkReason: 'chunker_version', added: 1, skipped: 2 })
  t.equal((await findPage(db, 'notes', 'notes/list.txt'))?.title, 'list')
  t.equal((await sync(db, { sourceId: 'code' })).status, 'up_to_date', 'a code source imports no notes and does not walk')
})

engineTest(t, 'a poison file fails while the others import; it is recorded, reported and retried', async (t, { db }) => {
  const repo = makeRepo({
    'good.md': '# Good\n',
    'broken.md': '---\ntitle: [oops\n---\nbody\n',
    'bad-utf8.md': Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]),
    'also-good.md': '# Also good\n',
  })
  await insertSource(db, { id: 'p', localPath: repo.dir })
  const first = await sync(db, { sourceId: 'p' })
  t.equal(first.added, 2)
  t.equal(first.failed, 2)
  t.same(first.failures.map((f) => [f.path, f.code]).sort(), [
    ['bad-utf8.md', 'invalid_utf8'],
    ['broken.md', 'YAML_PARSE'],
  ])
  t.equal(first.toCommit, repo.head(), 'the bookmark moves; the failures are recorded instead of skipped silently')
  t.same(
    (await listFailures(db, 'p')).map((f) => [f.path, f.attempts]),
    [
      ['bad-utf8.md', 1],
      ['broken.md', 1],
    ],
  )

  const idle = await sync(db, { sourceId: 'p' })
  t.equal(idle.status, 'up_to_date')
  t.same(
    idle.pendingFailures.map((f) => f.path),
    ['bad-utf8.md', 'broken.md'],
    'still reported while nothing else changes',
  )

  repo.write('broken.md', '---\ntitle: Fixed\n---\nbody\n').write('also-good.md', '# Also good, edited\n')
  repo.commit('fix one')
  const retried = await sync(db, { sourceId: 'p' })
  t.equal(retried.added, 1, 'broken.md imports once fixed')
  t.equal(retried.modified, 1)
  t.same(
    retried.failures.map((f) => f.path),
    ['bad-utf8.md'],
    'the untouched poison file is retried and fails again',
  )
  t.same(
    (await listFailures(db, 'p')).map((f) => [f.path, f.attempts]),
    [['bad-utf8.md', 2]],
  )
  t.same(await slugs(db, 'p'), ['also-good', 'broken', 'good'])

  repo.remove('bad-utf8.md')
  repo.commit('drop it')
  const cleared = await sync(db, { sourceId: 'p' })
  t.equal(cleared.failed, 0)
  t.same(await listFailures(db, 'p'), [], 'a deleted failing file is no longer reported')
})

engineTest(t, 'dry run reports the plan and writes nothing', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n', 'b.md': '# B\n' })
  await insertSource(db, { id: 'd', localPath: repo.dir })
  const dry = await sync(db, { sourceId: 'd', dryRun: true })
  t.equal(dry.status, 'dry_run')
  t.equal(dry.added, 2)
  t.same(await slugs(db, 'd'), [])
  const { rows } = await db.query<{ last_commit: string | null }>(`SELECT last_commit FROM sources WHERE id = 'd'`)
  t.equal(rows[0]!.last_commit, null, 'the bookmark is untouched')
  await sync(db, { sourceId: 'd' })
  repo.remove('a.md').write('b.md', '# B2\n').write('c.md', '# C\n')
  repo.commit('x')
  const plan = await sync(db, { sourceId: 'd', dryRun: true })
  t.same({ added: plan.added, modified: plan.modified, deleted: plan.deleted }, { added: 1, modified: 1, deleted: 1 })
  t.same(await slugs(db, 'd'), ['a', 'b'])
  await sync(db, { sourceId: 'd' })
  const full = await sync(db, { sourceId: 'd', full: true, dryRun: true })
  t.same({ mode: full.mode, skipped: full.skipped, modified: full.modified, added: full.added }, { mode: 'full', skipped: 2, modified: 0, added: 0 }, 'unchanged files are judged by content hash')
})

engineTest(t, 'HEAD moving backwards (a reset) brings the pages back to HEAD; an empty repository is refused', async (t, { db }) => {
  const repo = makeRepo({ 'a.md': '# A\n\nversion one\n' })
  const first = repo.head()
  await sync(db, { repo: repo.dir })
  repo.write('a.md', '# A\n\nversion two\n').write('b.md', '# B\n')
  repo.commit('two')
  await sync(db, { repo: repo.dir })
  repo.git('reset', '-q', '--hard', first)
  const back = await sync(db, { repo: repo.dir })
  t.same({ modified: back.modified, deleted: back.deleted, toCommit: back.toCommit }, { modified: 1, deleted: 1, toCommit: first })
  t.match((await findPage(db, 'default', 'a'))!.compiledTruth, /version one/)
  t.equal(await findPage(db, 'default', 'b'), null)
  const empty = makeRepo()
  await t.rejects(sync(db, { repo: empty.dir }), { code: 'repo_has_no_commits' })
  t.equal((await db.query('SELECT 1 FROM sync_locks')).rowCount, 0, 'a refused sync leaves no lock behind')
})

engineTest(t, 'a rename onto a slug another file already holds trashes the old page and fails nothing', async (t, { db }) => {
  const repo = makeRepo({
    'notes/Target.md': '# Target\n\nThe page that holds the slug.\n',
    'notes/a.md': '# A\n\nAbout to be renamed onto a taken slug.\n',
  })
  await insertSource(db, { id: 'notes', localPath: repo.dir, strategy: 'markdown' })
  t.equal((await sync(db, { sourceId: 'notes' })).added, 2)
  repo.move('notes/a.md', 'notes/TARGET.md')
  repo.commit('rename onto a taken slug')
  const result = await sync(db, { sourceId: 'notes' })
  t.equal(result.failed, 0, JSON.stringify(await listFailures(db, 'notes')))
  t.same(await slugs(db, 'notes'), ['notes/target'], 'one page holds the slug')
  const { rows } = await db.query<{ slug: string }>('SELECT slug FROM page_trash ORDER BY slug')
  t.same(
    rows.map((r) => r.slug),
    ['notes/a'],
    'the renamed page went to the trash, restorable',
  )
})
