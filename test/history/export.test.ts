// test-runner: shares a process
import t, { type Test } from 'tap'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from '../../src/db/types.js'
import { exportPages } from '../../src/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { changePageTag, findPage, putPage } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { engineTest, openTestDatabase } from '../helpers/engines.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'brain-export-'))
const EXAMPLE_BRAIN = join(dirname(fileURLToPath(import.meta.url)), '../../../examples/brain')

type PageFacts = { slug: string; title: string; type: string; tags: string[]; compiled_truth: string; timeline: string; content_hash: string }

async function facts(db: Database, kind = 'markdown'): Promise<PageFacts[]> {
  const { rows } = await db.query<PageFacts>(
    `SELECT slug, title, type, compiled_truth, timeline, content_hash,
            (SELECT coalesce(array_agg(tag ORDER BY tag), '{}') FROM tags WHERE page_id = p.id) AS tags
     FROM pages p WHERE page_kind = $1 ORDER BY slug`,
    [kind],
  )
  return rows
}

/** Exports `db`, imports the folder into an empty brain on the same engine, and compares. */
async function roundTrip(t: Test, db: Database, engine: 'pglite' | 'postgres', options: { includeCode?: boolean } = {}): Promise<void> {
  const dir = join(tmp(), 'out')
  const result = await exportPages(db, dir, { includeCode: options.includeCode })
  t.equal(result.written, result.pages, 'every page written')
  const fresh = await openTestDatabase(engine)
  t.teardown(fresh.cleanup)
  const imported = await importFolder(fresh.db, dir, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(imported.failed, [], 'the export imports without failures')
  t.same(await facts(fresh.db), await facts(db), 'same slugs, titles, types, tags, bodies and content hashes')
  if (options.includeCode) t.same(await facts(fresh.db, 'code'), await facts(db, 'code'), 'code pages too')
}

engineTest(t, 'the example brain exports and imports back into the same pages', async (t, { db, engine }) => {
  await importFolder(db, EXAMPLE_BRAIN, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.ok((await facts(db)).length >= 4, 'the example notes are imported')
  await roundTrip(t, db, engine, { includeCode: true })
})

// 600 pages: more than one of the export's batches of 500 and several of the import's.
engineTest(t, 'a generated brain of 600 pages with odd slugs round-trips', async (t, { db, engine }) => {
  const ctx = { db, logger: memoryLogger(), repoPath: null, remote: false }
  const odd = ['Notes/Mixed Case', 'spaces in/a name', 'dots.in/the.slug', 'ünïcödé/日本語のノート', 'deep/a/b/c/d/e/f/g', 'émoji/🦘 kangaroo', 'x/#hash and %percent']
  for (let i = 0; i < 600; i++) {
    const slug = i < odd.length ? odd[i]! : `gen/${i % 10}/page-${i}`
    const tags = i % 3 === 0 ? `tags: [t${i % 5}, shared]\n` : ''
    const timeline = i % 4 === 0 ? `\n## Timeline\n\n- 2024-0${(i % 9) + 1}-01: event ${i}\n` : ''
    await putPage(ctx, { slug, content: `---\ntitle: "Page ${i}: a title"\ntype: ${i % 2 ? 'note' : 'idea'}\n${tags}---\n# Heading ${i}\n\nBody of page ${i} with *markdown*.\n${timeline}` })
  }
  t.equal((await facts(db)).length, 600)
  await roundTrip(t, db, engine)
})

engineTest(t, 'tag and untag keep the content hash the exported file imports with, and keep a version', async (t, { db, engine }) => {
  const ctx = { db, logger: memoryLogger(), repoPath: null, remote: false }
  await putPage(ctx, { slug: 'plain', content: '# Plain\n\nNo tags yet.\n' })
  await putPage(ctx, { slug: 'tagged', content: '---\ntags: [b, a]\n---\n# Tagged\n\nText with #inline tag.\n' })
  await putPage(ctx, { slug: 'dropped', content: '---\ntags: [gone, kept]\n---\n# Dropped\n' })
  const id = async (slug: string) => (await findPage(db, 'default', slug))!.id
  const before = (await findPage(db, 'default', 'plain'))!.contentHash
  t.ok(await changePageTag(db, await id('plain'), 'fresh', true, 'tag'))
  t.ok(await changePageTag(db, await id('tagged'), 'c', true, 'tag'))
  t.ok(await changePageTag(db, await id('dropped'), 'gone', false, 'untag'))
  t.notOk(await changePageTag(db, await id('dropped'), 'gone', false, 'untag'), 'removing a missing tag changes nothing')
  const plain = (await findPage(db, 'default', 'plain'))!
  t.not(plain.contentHash, before, 'the hash follows the tags')
  t.same(plain.tags, ['fresh'])
  t.equal(plain.writtenVia, 'tag')
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM page_versions WHERE page_id = $1', [plain.id])
  t.equal(rows[0]!.n, 1, 'the untagged text is kept as a version, as a put would keep it')
  await roundTrip(t, db, engine)
})

engineTest(t, 'export refuses overwrites without --force, writes nothing outside its folder, and filters', async (t, { db }) => {
  const ctx = { db, logger: memoryLogger(), repoPath: null, remote: false }
  await putPage(ctx, { slug: 'notes/one', content: '# One\n\nfirst\n' })
  await putPage(ctx, { slug: 'notes/two', content: '---\ntype: idea\n---\n# Two\n\nsecond\n' })
  await putPage(ctx, { slug: 'linked/three', content: '# Three\n' })
  const dir = tmp()
  mkdirSync(join(dir, 'notes'))
  writeFileSync(join(dir, 'notes/one.md'), 'my own file\n')
  await t.rejects(exportPages(db, dir), { code: 'export_would_overwrite' })
  t.notOk(existsSync(join(dir, 'notes/two.md')), 'a refused export writes nothing')
  t.equal(readFileSync(join(dir, 'notes/one.md'), 'utf8'), 'my own file\n')
  const forced = await exportPages(db, dir, { force: true })
  t.match(forced, { pages: 3, written: 3 })
  t.match(readFileSync(join(dir, 'notes/one.md'), 'utf8'), /first/)
  t.match(await exportPages(db, dir), { written: 0, unchanged: 3 }, 'a second export of the same pages is no overwrite')

  const outside = tmp()
  const escape = tmp()
  symlinkSync(outside, join(escape, 'linked'))
  await t.rejects(exportPages(db, escape, { prefix: 'linked/' }), { code: 'path_outside_root' })
  t.notOk(existsSync(join(outside, 'three.md')), 'nothing lands behind a symbolic link')

  const file = join(tmp(), 'a-file')
  writeFileSync(file, 'x')
  await t.rejects(exportPages(db, file), { code: 'export_target_not_directory' })

  const filtered = join(tmp(), 'f')
  t.match(await exportPages(db, filtered, { type: 'idea' }), { pages: 1 })
  t.ok(existsSync(join(filtered, 'notes/two.md')))
  t.notOk(existsSync(join(filtered, 'notes/one.md')))
})
