// test-runner: shares a process
import t from 'tap'
import { writeTree } from '../../helpers/tree.js'
import { writeFileSync, truncateSync } from 'node:fs'
import { join } from 'node:path'
import { importFolder } from '../../../src/intake/import/index.js'
import { findPage, importPage, listPages, writeThroughPath } from '../../../src/pages/index.js'
import { search, searchDeps } from '../../../src/search/index.js'
import { loadConfig } from '../../../src/config/index.js'
import { engineTest } from '../../helpers/engines.js'

const tree = (files: Record<string, string | Buffer>): string => writeTree('brain-import-', files)

engineTest(t, 'a folder of notes and code imports; poison files are recorded and the rest continue', async (t, { db }) => {
  const root = tree({
    'notes/ada.md': '# Ada\n\nFirst programmer.',
    'notes/Big Ideas.md': '# Big ideas',
    'README.md': '# not imported',
    'src/math.py': 'def add(a, b):\n    """Add."""\n    return a + b\n',
    'src/bad-utf8.ts': Buffer.from([0x63, 0x6f, 0x6e, 0x73, 0x74, 0x20, 0xff, 0xfe, 0x0a]),
    'src/binary.json': Buffer.from([0x7b, 0x00, 0x01, 0x7d]),
    'notes/broken.md': '---\ntitle: [oops\n---\nbody',
    'notes/sentence.md': '---\njust a sentence, not front matter\n---\nbody',
  })
  writeFileSync(join(root, 'src/huge.ts'), '')
  truncateSync(join(root, 'src/huge.ts'), 50 * 1024 * 1024)
  const result = await importFolder(db, root, { strategy: 'auto', sourceId: 'default', embedder: null })
  t.equal(result.created, 3, 'ada, big ideas, math.py')
  t.same(result.failed.map((f) => [f.path, f.code]).sort(), [
    ['notes/broken.md', 'YAML_PARSE'],
    ['notes/sentence.md', 'YAML_PARSE'],
    ['src/bad-utf8.ts', 'invalid_utf8'],
    ['src/binary.json', 'binary_file'],
    ['src/huge.ts', 'file_too_large'],
  ])
  t.same((await listPages(db)).map((p) => p.slug).sort(), ['notes/ada', 'notes/big-ideas', 'src/math.py'])
  const code = await findPage(db, 'default', 'src/math.py')
  t.equal(code!.pageKind, 'code')
  t.same(result.touchedSlugs.sort(), ['notes/ada', 'notes/big-ideas', 'src/math.py'])
  const again = await importFolder(db, root, { strategy: 'auto', sourceId: 'default', embedder: null })
  t.equal(again.skipped, 3, 'unchanged files are skipped on the second run')
  t.equal(again.created + again.updated, 0)
})

engineTest(t, 'plain-text notes import as pages titled by their markup or file name, found by search, written back to themselves', async (t, { db }) => {
  const root = tree({
    'notes/Shopping List.txt': 'sourdough flour, eggs\nand the #weekly tag\n',
    'docs/guide.rst': '.. _guide:\n\n=============\nPelican guide\n=============\n\nHow pelicans fish.\n\nFeeding\n-------\n\nMostly at dawn.\n',
    'agenda.org': '# an Org comment\n#+TITLE: Quarterly agenda\n\n* Budget\nReview the heron budget.\n',
    'docs/add_thing.rst': 'add_thing\n---------\n\nAdds a thing.\n\nExamples\n========\n\nMore.\n',
    'notes/release.txt': 'Release Notes\n=============\n\nThe changes.\n',
    'notes/setext.md': 'An Underlined Title\n===\n\nText.\n',
    'book/intro.adoc': '// a comment\n= Writing in AsciiDoc\n:toc:\n\nAsciiDoc has its own headers.\n',
    'notes/README.txt': 'not a note',
    'notes/minutes.txt': '---\nMinutes: of the meeting, in prose\nWe agreed on herons.\n---\nThe end.\n',
    'notes/tagged.txt': '---\ntags: [birds]\n---\nA tagged text.\n',
    'notes/list.md': '# List\n\nSee [[Shopping List.txt]].\n',
  })
  const result = await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
  t.same(result.failed, [])
  const titles = Object.fromEntries((await listPages(db, { limit: 20 })).map((p) => [p.slug, p.title]))
  t.same(titles, {
    'notes/shopping-list.txt': 'Shopping List',
    'docs/guide.rst': 'Pelican guide',
    'agenda.org': 'Quarterly agenda',
    'book/intro.adoc': 'Writing in AsciiDoc',
    'notes/list': 'List',
    'notes/minutes.txt': 'minutes',
    'notes/tagged.txt': 'tagged',
    'docs/add_thing.rst': 'add_thing',
    'notes/release.txt': 'Release Notes',
    'notes/setext': 'An Underlined Title',
  })
  const list = await findPage(db, 'default', 'notes/shopping-list.txt')
  t.equal(list!.compiledTruth, 'sourdough flour, eggs\nand the #weekly tag', 'the text is kept as written')
  t.same(list!.tags, ['weekly'])
  const minutes = await findPage(db, 'default', 'notes/minutes.txt')
  t.equal(minutes!.compiledTruth, '---\nMinutes: of the meeting, in prose\nWe agreed on herons.\n---\nThe end.', 'a block between separators that is no YAML mapping stays text')
  t.same((await findPage(db, 'default', 'notes/tagged.txt'))!.tags, ['birds'], 'front matter that is a mapping is read')
  await importPage(db, { slug: 'notes/watched.txt', sourceId: 'default', kind: 'markdown', content: '---\nNot: a header, but prose\nof a note\n---\nend\n' })
  t.match((await findPage(db, 'default', 'notes/watched.txt'))!.compiledTruth, /^---\nNot: a header/, 'a plain-text note written without its path (the directory watcher) keeps its text too')
  const found = await search(searchDeps(db, loadConfig({ env: { BRAIN_HOME: '/nonexistent' } })), 'heron budget', { limit: 3 })
  t.equal(found.results[0]?.slug, 'agenda.org')
  const { rows } = await db.query<{ slug: string }>('SELECT t.slug FROM links l JOIN pages f ON f.id = l.from_page_id JOIN pages t ON t.id = l.to_page_id WHERE f.slug = $1', ['notes/list'])
  t.same(rows, [{ slug: 'notes/shopping-list.txt' }], 'a wikilink naming the file finds it')
  t.equal(writeThroughPath('/brain', 'default', 'notes/shopping-list.txt'), '/brain/notes/shopping-list.txt', 'a page written back goes to its own file')
  t.equal(writeThroughPath('/brain', 'default', 'notes/list'), '/brain/notes/list.md')
})

engineTest(t, 'importing a missing folder is a clear error', async (t, { db }) => {
  await t.rejects(importFolder(db, '/nonexistent/brain/folder', { strategy: 'auto', sourceId: 'default', embedder: null }), { code: 'folder_not_found' })
})

engineTest(t, 'minified and generated scripts and stylesheets are recorded, not imported; scripts written by hand are', async (t, { db }) => {
  const handwritten = Array.from({ length: 40 }, (_, i) => `export function step${i}(value) {\n  return value + ${i}\n}\n`).join('\n')
  const bundle = `!function(){${Array.from({ length: 200 }, (_, i) => `var a${i}=function(b){return b+${i}};`).join('')}}();\n`
  const searchIndex = `window.search = JSON.parse('${JSON.stringify({ docs: Array.from({ length: 100 }, (_, i) => ({ id: i, body: 'words of the page' })) })}');\n`
  const root = tree({
    'site/book.js': handwritten,
    'site/bundle.js': bundle,
    'site/searchindex-a4b633b3.js': searchIndex,
    'site/theme.css': `${Array.from({ length: 60 }, (_, i) => `.c${i}{color:#${i}${i}${i};margin:${i}px}`).join('')}`,
    'site/short.js': 'export const answer = { question: "the ultimate question of life, the universe and everything", value: 42, checked: true, source: "a book" }\n',
    'site/app.py': `${'x = 1\n'.repeat(5)}`,
  })
  const result = await importFolder(db, root, { strategy: 'code', sourceId: 'default', embedder: null })
  t.same(result.failed.map((f) => [f.path, f.code]).sort(), [
    ['site/bundle.js', 'minified_file'],
    ['site/searchindex-a4b633b3.js', 'minified_file'],
    ['site/theme.css', 'minified_file'],
  ])
  t.same((await listPages(db, { limit: 10 })).map((p) => p.slug).sort(), ['site/app.py', 'site/book.js', 'site/short.js'])
})
