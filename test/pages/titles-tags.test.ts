import t from 'tap'
import { findPage, importPage, parseMarkdownPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

t.test('titles: front matter, then the first # heading outside code, then the file name as written', async (t) => {
  t.equal(parseMarkdownPage('---\ntitle: From FM\n---\n# Heading\n', 'a', 'A.md').title, 'From FM')
  t.equal(parseMarkdownPage('Text\n\n# Heading\n', 'a', 'A.md').title, 'Heading')
  t.equal(parseMarkdownPage('Just text.\n', 'notes/workspace', 'notes/Workspace.md').title, 'Workspace', 'case kept')
  t.equal(parseMarkdownPage('Just text.\n', 'notes/my-idea').title, 'my idea', 'no file: the slug as words')
  const fenced = '```yaml\n# Simple filter:\nkey: 1\n```\n\nBody.\n'
  t.equal(parseMarkdownPage(fenced, 'filters', 'Filters.md').title, 'Filters', 'a # line in a fence is not a heading')
  t.equal(parseMarkdownPage(`${fenced}\n# Real\n`, 'filters', 'Filters.md').title, 'Real')
  t.equal(parseMarkdownPage('~~~\n# no\n~~~\n', 'x/y', 'x/Café Notes.markdown').title, 'Café Notes')
})

t.test('inline tags beside front-matter tags: nested, not in code, not numbers, not headings, not anchors', async (t) => {
  const text = [
    '---',
    'tags: [fm, shared]',
    '---',
    '# Heading #intitle',
    '#start of line, mid #tag, #nested/deep/ and #shared again',
    'Issue #123 and #2024/05 are numbers; a#b, [[Note#Heading]], [x](#anchor) and http://h/#frag are not tags',
    '`#code` is code, ## Subheading is a heading',
    '```',
    '#fenced',
    '```',
    '## Timeline',
    '- #event happened',
  ].join('\n')
  t.same(parseMarkdownPage(text, 'p').tags, ['event', 'fm', 'intitle', 'nested/deep', 'shared', 'start', 'tag'])
  t.same(parseMarkdownPage('#über #日本 #a-b_c', 'p').tags, ['a-b_c', 'über', '日本'])
})

engineTest(t, 'an imported file gets its file-name title and inline tags', async (t, { db }) => {
  await importPage(db, { slug: 'notes/workspace', kind: 'markdown', content: 'Setup of my #desk.\n', path: 'notes/Workspace.md' })
  const page = await findPage(db, 'default', 'notes/workspace')
  t.equal(page!.title, 'Workspace')
  t.same(page!.tags, ['desk'])
})
