// test-runner: shares a process
import t from 'tap'
import { writeConfigValue } from '../../src/config/index.js'
import { getBacklinks, getLinks, pageCitations, reconcileLinks } from '../../src/links/index.js'
import { putPage } from '../../src/pages/index.js'
import { silentLogger } from '../../src/util/logger.js'
import extractHandler from '../../workers/extract.js'
import type { JobContext } from '../../src/queue/handler.js'
import { engineTest } from '../helpers/engines.js'
import { importNote, importRepo, NOTE, NOTE_SLUG } from '../code/fixture.js'

const CITED = ['app/main.py', 'cmd/main.go', 'src/queue.ts']

t.test('citations: source folders and code extensions only, each path once, compiled truth first', async (t) => {
  const found = pageCitations('See src/a.ts:12, src/a.ts again, lib/b.py and docs/guide.md.\nNot foo/src/c.ts nor src/d.tsx.bak', '- moved src/a.ts\n- added tests/e2e/run.go:3')
  t.same(found, [
    { path: 'src/a.ts', line: 12, field: 'compiled_truth' },
    { path: 'lib/b.py', line: null, field: 'compiled_truth' },
    { path: 'tests/e2e/run.go', line: 3, field: 'timeline' },
  ])
  t.same(pageCitations('nothing here', ''), [])
})

t.test('citations: a path inside a longer name is none, so a line of many `src/@` costs its length', async (t) => {
  // `@` and `+` belong to a path, and a citation could start after one: each read to the end of
  // the line, the square of it, about an hour for this line.
  const long = `${'src/@'.repeat(200_000)}a.ts`
  t.same(
    pageCitations(`${long} and x@src/b.ts, y+lib/c.py but (src/d.ts)`, '').map((c) => c.path),
    [long, 'src/d.ts'],
  )
})

engineTest(t, 'a markdown page citing code gets documents links and the code pages documented_by links back', async (t, { db }) => {
  await importRepo(db)
  await importNote(db)
  const links = await getLinks(db, NOTE_SLUG)
  t.same(
    links.map((l) => l.toSlug),
    CITED,
    'missing and non-citation paths skipped, duplicates once',
  )
  t.ok(links.every((l) => l.linkType === 'documents' && l.linkSource === 'markdown' && l.originPageId === NOTE_SLUG && l.otherPageKind === 'code'))
  t.same(
    links.map((l) => l.originField),
    ['compiled_truth', 'timeline', 'compiled_truth'],
  )
  const back = await getLinks(db, 'src/queue.ts')
  t.match(back, [{ fromSlug: 'src/queue.ts', toSlug: NOTE_SLUG, linkType: 'documented_by', linkSource: 'markdown', originPageId: NOTE_SLUG, originField: 'compiled_truth' }])
  t.same(
    (await getBacklinks(db, 'src/queue.ts')).map((l) => [l.fromSlug, l.linkType]),
    [[NOTE_SLUG, 'documents']],
  )
  t.same(
    (await getBacklinks(db, NOTE_SLUG)).map((l) => l.fromSlug),
    CITED,
  )

  await importNote(db, {}, NOTE.replace('cmd/main.go', 'the server folder'))
  t.same(
    (await getLinks(db, NOTE_SLUG)).map((l) => l.toSlug),
    ['app/main.py', 'src/queue.ts'],
    're-import replaces the citation links',
  )
  t.same(await getLinks(db, 'cmd/main.go'), [])
})

engineTest(t, 'reconcile-links fills in a code page that arrived after the note; idempotent; dry run writes nothing', async (t, { db }) => {
  await importNote(db)
  await importRepo(db)
  t.same(await getLinks(db, NOTE_SLUG), [], 'the code was not there when the note was imported')
  const dry = await reconcileLinks(db, null, { dryRun: true })
  t.match(dry, { status: 'ok', dryRun: true, pagesScanned: 1, references: 4, linksAdded: 6, edgesTargetsMissing: 1 })
  t.same(await getLinks(db, NOTE_SLUG), [], 'dry run wrote nothing')
  const first = await reconcileLinks(db, null, {})
  t.match(first, { status: 'ok', dryRun: false, linksAdded: 6, edgesTargetsMissing: 1 })
  t.same(
    (await getLinks(db, NOTE_SLUG)).map((l) => l.toSlug),
    CITED,
  )
  const again = await reconcileLinks(db, null, {})
  t.match(again, { linksAdded: 0, edgesTargetsMissing: 1 }, 'a second run adds nothing')
  t.same((await reconcileLinks(db, null, { dryRun: true })).linksAdded, 0)
})

engineTest(t, 'auto_link = false: reconcile says auto_link_disabled, imports make no links', async (t, { db }) => {
  await importRepo(db)
  await writeConfigValue(db, 'auto_link', 'false')
  await importNote(db)
  t.same(await getLinks(db, NOTE_SLUG), [])
  t.match(await reconcileLinks(db, null, {}), { status: 'auto_link_disabled', dryRun: false, pagesScanned: 0, references: 0, linksAdded: 0, edgesTargetsMissing: 0 })
  await writeConfigValue(db, 'auto_link', 'true')
  t.equal((await reconcileLinks(db, null, {})).linksAdded, 6)
})

engineTest(t, 'remote (MCP) writes make no links; trusted local writes do', async (t, { db }) => {
  await importRepo(db)
  const ctx = { db, logger: silentLogger, repoPath: null }
  await putPage({ ...ctx, remote: true }, { slug: 'notes/remote', content: NOTE })
  t.same(await getLinks(db, 'notes/remote'), [], 'remote write: no links')
  await putPage({ ...ctx, remote: false }, { slug: 'notes/local', content: NOTE })
  t.same(
    (await getLinks(db, 'notes/local')).map((l) => l.toSlug),
    CITED,
  )
})

function jobContext(db: JobContext['db'], data: Record<string, unknown>): JobContext {
  return {
    jobId: 'test',
    name: 'extract',
    data,
    signal: new AbortController().signal,
    db,
    config: {} as JobContext['config'],
    logger: silentLogger,
    progress: () => undefined,
  }
}

engineTest(t, 'the extract job: an empty slug list returns at once; a code slug links the notes citing it', async (t, { db }) => {
  await importNote(db)
  await importRepo(db, {}, ['cmd/main.go'])
  t.match(await extractHandler(jobContext(db, { slugs: [] })), { status: 'ok', dryRun: false, pagesScanned: 0, references: 0, linksAdded: 0, edgesTargetsMissing: 0 })
  t.same(await getLinks(db, NOTE_SLUG), [])
  const result = await extractHandler(jobContext(db, { slugs: ['cmd/main.go'] }))
  t.match(result, { pagesScanned: 1, linksAdded: 2 })
  t.same(
    (await getLinks(db, NOTE_SLUG)).map((l) => [l.toSlug, l.originField]),
    [['cmd/main.go', 'timeline']],
  )
  const all = await extractHandler(jobContext(db, {}))
  t.match(all, { pagesScanned: 1, linksAdded: 0, edgesTargetsMissing: 3 }, 'no slugs: every page; cited files without pages counted')
  const err = await extractHandler(jobContext(db, { slugs: 'notes/design' })).then(
    () => null,
    (e: { code?: string }) => e,
  )
  t.equal(err?.code, 'extract_invalid_slugs')
})
