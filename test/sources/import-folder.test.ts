import t from 'tap'
import { writeTree } from '../helpers/tree.js'
import { writeFileSync, truncateSync } from 'node:fs'
import { join } from 'node:path'
import { importFolder } from '../../src/import/index.js'
import { findPage, listPages } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

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
  })
  writeFileSync(join(root, 'src/huge.ts'), '')
  truncateSync(join(root, 'src/huge.ts'), 50 * 1024 * 1024)
  const result = await importFolder(db, root, { strategy: 'auto', sourceId: 'default', embedder: null })
  t.equal(result.created, 3, 'ada, big ideas, math.py')
  t.same(result.failed.map((f) => [f.path, f.code]).sort(), [
    ['notes/broken.md', 'YAML_PARSE'],
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
