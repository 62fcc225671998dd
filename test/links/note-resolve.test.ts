// test-runner: shares a process
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { migrationsDir } from '../../src/db/migrate.js'
import type { Database } from '../../src/db/types.js'
import { getBacklinks, getLinks } from '../../src/links/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { deletePage, importPage, importPages, putPage, resolvePageRef } from '../../src/pages/index.js'
import { insertSource } from '../../src/intake/sources/source-repository.js'
import { runSync, type SyncRequest } from '../../src/intake/sync/index.js'
import { silentLogger } from '../../src/util/logger.js'
import { makePdf } from '../convert/pdf-fixtures.js'
import { engineTest } from '../helpers/engines.js'
import { makeRepo } from '../intake/sync/helpers.js'

async function note(db: Database, slug: string, content: string, sourceId?: string): Promise<void> {
  await importPage(db, { slug, sourceId, kind: 'markdown', content, path: `${slug}.md` })
}

/** Where each of a page's links points: [target as written, slug or null]. */
async function targets(db: Database, slug: string): Promise<Array<[string | null, string | null]>> {
  const links = await getLinks(db, slug)
  return links
    .filter((l) => l.targetText !== null)
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.targetText ?? '').localeCompare(b.targetText ?? ''))
    .map((l) => [l.targetText, l.toSlug])
}

engineTest(t, 'resolution order: exact path, relative path, shortest path by file name (ties by path order), title, alias; case-insensitive', async (t, { db }) => {
  await note(db, 'people/ada', '# Ada Lovelace\n')
  await note(db, 'notes/ada', '# Another Ada\n')
  await note(db, 'archive/old/ada', '# Old Ada\n')
  await note(db, 'x/b/note', '# B\n')
  await note(db, 'x/a/note', '# A\n')
  await note(db, 'inbox/local', '# Local\n')
  await note(db, 'people/grace', '---\naliases: [Amazing Grace, Admiral]\n---\n# Grace Hopper\n')
  await note(
    db,
    'inbox/here',
    [
      '[[people/ada]]', // 1: exact vault path
      '[[local]]', // 2: relative to the linking page's folder
      '[[ada]]', // 3: shortest path among the pages named ada
      '[[note]]', // 4: same length: path order
      '[[NOTES/ADA.md]]', // 5: case-insensitive, .md optional
      '[[Ada Lovelace]]', // 6: the title
      '[[amazing grace]]', // 7: an alias
      '[[old/ada]]', // 8: a path suffix
      '[[Nobody]]', // 9: nothing
    ].join('\n'),
  )
  t.same(await targets(db, 'inbox/here'), [
    ['people/ada', 'people/ada'],
    ['local', 'inbox/local'],
    ['ada', 'notes/ada'],
    ['note', 'x/a/note'],
    ['NOTES/ADA.md', 'notes/ada'],
    ['Ada Lovelace', 'people/ada'],
    ['amazing grace', 'people/grace'],
    ['old/ada', 'archive/old/ada'],
    ['Nobody', null],
  ])
})

engineTest(t, 'a relative path that ends in another file name still resolves by its own rule', async (t, { db }) => {
  await note(db, 'inbox', '# Inbox\n')
  await note(db, 'other/inbox', '# Another inbox\n')
  await note(db, 'inbox/here', '[[x/..]] and [[inbox]]')
  t.same(await targets(db, 'inbox/here'), [
    ['inbox', 'inbox'],
    ['x/..', 'inbox'],
  ])
})

engineTest(t, "within a rule, the linking page's own source comes first; an earlier rule wins in any source", async (t, { db }) => {
  await db.query(`INSERT INTO sources (id, name) VALUES ('work', 'work')`)
  await note(db, 'x/plan', '# Plan (default)\n')
  await note(db, 'deep/folder/plan', '# Plan (work)\n', 'work')
  await note(db, 'roadmap', '# Roadmap (default)\n')
  await note(db, 'notes/roadmap', '# Roadmap (work)\n', 'work')
  await note(db, 'notes/link', '[[plan]] [[roadmap]]', 'work')
  t.same(
    (await getLinks(db, 'notes/link')).map((l) => [l.targetText, l.toSlug, l.toSourceId]),
    [
      ['plan', 'deep/folder/plan', 'work'],
      ['roadmap', 'roadmap', 'default'],
    ],
    'a shorter path in another source loses to its own; an exact path wins over a file-name match',
  )
})

engineTest(t, 'unresolved links resolve when the page appears (put, import), fall back when it goes, and become unresolved again', async (t, { db }) => {
  await note(db, 'notes/a', 'Wanted: [[Future Page]] and [[ghost]].')
  t.same(await targets(db, 'notes/a'), [
    ['Future Page', null],
    ['ghost', null],
  ])
  await putPage({ db, logger: silentLogger, repoPath: null, remote: false }, { slug: 'ideas/future-page', content: 'now here' })
  t.same(
    await targets(db, 'notes/a'),
    [
      ['Future Page', 'ideas/future-page'],
      ['ghost', null],
    ],
    'resolved without re-importing notes/a',
  )
  await note(db, 'z/ghost', '# Ghost\n')
  await note(db, 'ghost-stories', '---\ntitle: x\naliases: ghost\n---\n')
  t.same(
    await targets(db, 'notes/a'),
    [
      ['Future Page', 'ideas/future-page'],
      ['ghost', 'z/ghost'],
    ],
    'a file name beats an alias',
  )
  t.ok(await deletePage(db, 'default', 'z/ghost'))
  t.same(
    await targets(db, 'notes/a'),
    [
      ['Future Page', 'ideas/future-page'],
      ['ghost', 'ghost-stories'],
    ],
    'falls back to the alias',
  )
  t.ok(await deletePage(db, 'default', 'ghost-stories'))
  t.ok(await deletePage(db, 'default', 'ideas/future-page'))
  t.same(
    await targets(db, 'notes/a'),
    [
      ['Future Page', null],
      ['ghost', null],
    ],
    'unresolved again, target text kept',
  )
  await note(db, 'ideas/future-page', 'back again')
  t.same(
    await targets(db, 'notes/a'),
    [
      ['Future Page', 'ideas/future-page'],
      ['ghost', null],
    ],
    'a restored page is linked again',
  )
})

engineTest(t, 'pages written in one batch resolve the links waiting for any of their names by the same rules', async (t, { db }) => {
  await note(db, 'notes/a', 'Wanted: [[ada]], [[The Engine]], [[analyst]], [[ghost]], [[zz/ada]].')
  const batch = (slug: string, content: string) => ({ slug, kind: 'markdown' as const, content, path: `${slug}.md` })
  const outcomes = await importPages(db, [
    batch('people/zz/ada', '# Ada Lovelace\n'),
    batch('people/ada', '---\naliases: [Analyst]\n---\n# Countess\n'),
    batch('machines/engine', '# The Engine\n'),
    batch('notes/b', 'Backwards: [[Countess]].'),
  ])
  t.ok(
    outcomes.every((o) => o.ok && o.result.status === 'created'),
    'the four pages were written together',
  )
  t.same(await targets(db, 'notes/a'), [
    ['ada', 'people/ada'],
    ['analyst', 'people/ada'],
    ['ghost', null],
    ['The Engine', 'machines/engine'],
    ['zz/ada', 'people/zz/ada'],
  ])
  t.same(await targets(db, 'notes/b'), [['Countess', 'people/ada']], 'a link of the batch finds a page of the same batch')
})

engineTest(t, 'a re-import replaces the explicit links; a self link and a cycle are fine', async (t, { db }) => {
  await note(db, 'a', '[[a]] [[b]] [[#Top]]')
  await note(db, 'b', '[[a]]')
  t.same(await targets(db, 'a'), [
    ['', 'a'],
    ['a', 'a'],
    ['b', 'b'],
  ])
  t.same(
    (await getBacklinks(db, 'a')).map((l) => [l.fromSlug, l.anchor]),
    [
      ['a', null],
      ['a', 'Top'],
      ['b', null],
    ],
  )
  await note(db, 'a', 'only [[c]] now')
  t.same(await targets(db, 'a'), [['c', null]])
  t.same(await getBacklinks(db, 'b'), [])
})

engineTest(t, 'embeds, property links, timeline links and markdown links carry type, field, line, shown text and context', async (t, { db }) => {
  await note(db, 'projects/x', '# Project X\n')
  await note(db, 'people/ada', '# Ada\n')
  await note(db, 'notes/n', ['---', 'related: "[[Project X]]"', '---', 'Intro ![[diagram.png]] and [Ada](../people/ada.md#early%20life).', '## Timeline', '- met [[ada|Ada L.]]'].join('\n'))
  const links = await getLinks(db, 'notes/n')
  t.same(
    links.map((l) => [l.linkType, l.linkSource, l.toSlug, l.originField, l.line, l.shownText, l.anchor]),
    [
      ['embeds', 'wikilink', null, 'compiled_truth', 4, null, null],
      ['links_to', 'markdown_link', 'people/ada', 'compiled_truth', 4, 'Ada', 'early life'],
      ['links_to', 'wikilink', 'people/ada', 'timeline', 6, 'Ada L.', null],
      ['related', 'frontmatter', 'projects/x', 'frontmatter', 2, null, null],
    ],
  )
  t.equal(links[1]!.context, 'Intro ![[diagram.png]] and [Ada](../people/ada.md#early%20life).')
  t.same(
    (await getBacklinks(db, 'people/ada', { types: ['links_to'] })).map((l) => l.line),
    [4, 6],
  )
  t.same(
    (await getBacklinks(db, 'projects/x', { types: ['related'] })).map((l) => l.fromSlug),
    ['notes/n'],
  )
  t.same(await getBacklinks(db, 'projects/x', { types: ['embeds'] }), [])
})

engineTest(t, 'remote writes keep explicit links but derive no citations', async (t, { db }) => {
  await importPage(db, { slug: 'src/app.ts', kind: 'code', content: 'export const a = 1\n', path: 'src/app.ts' })
  await note(db, 'people/ada', '# Ada\n')
  await putPage({ db, logger: silentLogger, repoPath: null, remote: true }, { slug: 'notes/remote', content: 'Cites src/app.ts and [[people/ada]].' })
  t.same(
    (await getLinks(db, 'notes/remote')).map((l) => [l.linkType, l.toSlug]),
    [['links_to', 'people/ada']],
  )
  await putPage({ db, logger: silentLogger, repoPath: null, remote: false }, { slug: 'notes/local', content: 'Cites src/app.ts and [[people/ada]].' })
  t.same(
    (await getLinks(db, 'notes/local')).map((l) => [l.linkType, l.toSlug]),
    [
      ['documents', 'src/app.ts'],
      ['links_to', 'people/ada'],
    ],
  )
})

engineTest(t, 'sync: a moved page keeps the links that still resolve; a deleted file leaves its links unresolved', async (t, { db }) => {
  const repo = makeRepo({
    'Index.md': '[[Ada Lovelace]] · [[notes/Grace]] · [[Gone]]',
    'notes/Ada Lovelace.md': 'First programmer.',
    'notes/Grace.md': 'Compilers.',
    'Gone.md': 'soon gone',
  })
  const sync = (request: SyncRequest) => runSync(db, request, { embedder: null, holder: 'test' })
  await insertSource(db, { id: 'vault', localPath: repo.dir, strategy: 'markdown' })
  await sync({ sourceId: 'vault' })
  t.same(await targets(db, 'index'), [
    ['Ada Lovelace', 'notes/ada-lovelace'],
    ['Gone', 'gone'],
    ['notes/Grace', 'notes/grace'],
  ])
  repo.move('notes/Ada Lovelace.md', 'people/Ada Lovelace.md').move('notes/Grace.md', 'people/Grace.md').remove('Gone.md')
  repo.commit('reorganise')
  await sync({ sourceId: 'vault' })
  t.same(
    await targets(db, 'index'),
    [
      ['Ada Lovelace', 'people/ada-lovelace'],
      ['Gone', null],
      ['notes/Grace', null],
    ],
    'found by file name after the move; a path that no longer exists and a deleted file are unresolved',
  )
})

engineTest(t, 'links to a PDF or an HTML file find the page the import made of it, whose slug drops the extension', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-doc-links-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'papers'))
  await mkdir(join(root, 'notes'))
  await writeFile(join(root, 'papers', 'Q1 Report.pdf'), await makePdf([{ heading: 'Revenue', lines: ['Revenue grew.'] }], { title: 'Q1 Report' }))
  await writeFile(join(root, 'papers', 'Saved Page.html'), '<html><head><title>Saved</title></head><body><p>Kept for later.</p></body></html>')
  await writeFile(
    join(root, 'notes', 'reading.md'),
    [
      '# Reading',
      'See ![[Q1 Report.pdf]], [[Q1 Report.pdf#page=2|page two]] and [the report](../papers/Q1%20Report.pdf).',
      'Saved: [[Saved Page.html]]. A picture ![[chart.png]] and [[Other.pdf]] are not pages.',
    ].join('\n'),
  )
  const imported = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(imported.failed.length, 0)
  t.same(await targets(db, 'notes/reading'), [
    ['../papers/Q1 Report.pdf', 'papers/q1-report'],
    ['Q1 Report.pdf', 'papers/q1-report'],
    ['Q1 Report.pdf', 'papers/q1-report'],
    ['chart.png', null],
    ['Other.pdf', null],
    ['Saved Page.html', 'papers/saved-page'],
  ])
  const backlinks = await getBacklinks(db, 'papers/q1-report')
  t.same(backlinks.map((l) => [l.linkType, l.anchor]).sort(), [
    ['embeds', null],
    ['links_to', null],
    ['links_to', 'page=2'],
  ])

  // Links stored before keyed the file with its extension and stayed unresolved: the migration
  // keys them again and resolves them.
  const before = await targets(db, 'notes/reading')
  await db.query(`UPDATE links SET target_key = target_key || '.pdf', target_rel_key = target_rel_key || '.pdf', to_page_id = NULL WHERE target_text LIKE '%Q1 Report.pdf'`)
  t.equal((await targets(db, 'notes/reading')).filter(([, to]) => to !== null).length, 1, 'only the HTML link still resolves')
  await db.exec(readFileSync(join(migrationsDir(), '0520_document_link_keys.sql'), 'utf8'))
  t.same(await targets(db, 'notes/reading'), before)
})

engineTest(t, 'a file named with decomposed accents, as macOS names files, gets the composed slug that typed slugs and links find', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-nfd-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'A\u0301rea'))
  await writeFile(join(root, 'A\u0301rea', 'Cafe\u0301 Cre\u0300me.md'), 'No heading: only the file name names this note.\n')
  await writeFile(join(root, 'links.md'), ['[[Café Crème]]', '[[área/café crème]]'].join('\n'))
  await writeFile(join(root, 'more.md'), '[[Cafe\u0301 Cre\u0300me]]\n')
  const imported = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(imported.failed.length, 0)
  const composed = 'área/café-crème'
  const slugs = async (): Promise<string[]> => (await db.query<{ slug: string }>(`SELECT slug FROM pages WHERE slug NOT IN ('links', 'more') ORDER BY id`)).rows.map((r) => r.slug)
  t.same(await slugs(), [composed])
  t.same(await targets(db, 'links'), [
    ['Café Crème', composed],
    ['área/café crème', composed],
  ])
  t.same(await targets(db, 'more'), [['Cafe\u0301 Cre\u0300me', composed]])
  t.equal((await resolvePageRef(db, 'a\u0301rea/cafe\u0301-cre\u0300me')).slug, composed, 'a decomposed slug finds the page')

  // A brain that stored the decomposed slug and keys before: the migration composes the slug and
  // resolves the links, keyed either way. A decomposed slug whose composed form another page of
  // the source already has is left alone.
  await note(db, 'x/é', '# Composed\n')
  await note(db, 'x/other', '# Decomposed\n')
  await db.query(`UPDATE pages SET slug = 'x/e\u0301' WHERE slug = 'x/other'`)
  await db.query(`UPDATE pages SET slug = normalize(slug, NFD) WHERE slug = $1`, [composed])
  await db.query(`UPDATE links SET to_page_id = NULL, target_key = normalize(target_key, NFD), target_rel_key = normalize(target_rel_key, NFD) WHERE target_text <> 'Café Crème'`)
  await db.query(`UPDATE links SET to_page_id = NULL WHERE target_text = 'Café Crème'`)
  const resolved = async (): Promise<Array<string | null>> => [...(await targets(db, 'links')), ...(await targets(db, 'more'))].map(([, to]) => to)
  t.same(await resolved(), [null, null, null])
  await db.exec(readFileSync(join(migrationsDir(), '0530_composed_slugs.sql'), 'utf8'))
  t.same(await slugs(), [composed, 'x/é', 'x/e\u0301'])
  t.same(await resolved(), [composed, composed, composed])
})

engineTest(t, 'a page with 10,000 links is stored whole; odd characters are kept as written', async (t, { db }) => {
  await note(db, 'hub/target-7', 'one of them exists')
  const many = Array.from({ length: 10_000 }, (_, i) => `[[target-${i}]]`).join(' ')
  await note(db, 'hub/many', `${many}\n[[Wh@t?! "quoted" <odd> ünï]] [[%00]] [[../../../../etc]]`)
  const { rows } = await db.query<{ n: number; resolved: number }>(`SELECT count(*) AS n, count(l.to_page_id) AS resolved FROM links l JOIN pages p ON p.id = l.from_page_id WHERE p.slug = 'hub/many'`)
  t.same([Number(rows[0]!.n), Number(rows[0]!.resolved)], [10_003, 1])
  const odd = await db.query<{ target_text: string; target_key: string }>(`SELECT target_text, target_key FROM links WHERE target_text NOT LIKE 'target-%' ORDER BY target_text COLLATE "C"`)
  t.same(
    odd.rows.map((r) => [r.target_text, r.target_key]),
    [
      ['%00', '%00'],
      ['../../../../etc', 'etc'],
      ['Wh@t?! "quoted" <odd> ünï', 'wh@t?!-"quoted"-<odd>-ünï'],
    ],
  )
  t.equal((await getLinks(db, 'hub/many', { limit: 5 })).length, 5, 'reads are capped')
})
