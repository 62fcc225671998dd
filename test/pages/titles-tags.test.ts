import t from 'tap'
import { noteLinks } from '../../src/links/index.js'
import { findPage, importPage, parseMarkdownPage, serializePage } from '../../src/pages/index.js'
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

t.test('code inside a callout, a quote or a list item is code: no tags, no links, no headings from it', async (t) => {
  const text = [
    '> [!example] CSS classes',
    '> Use #callout-tag here.',
    '> ```css',
    '> .red { border-color: #ff0000; } /* [[Not A Link]] */',
    '> ```',
    '',
    '1. Install:',
    '    ```bash',
    '    # not a heading #listcode',
    '    ```',
    '2. Then #after-list.',
    '',
    '> ```',
    '> #unclosed-in-quote',
    'The quote ended, so did its fence: #after-quote and [[Real Link]].',
    '```a``` b is inline code, #inline-ok',
  ].join('\n')
  const page = parseMarkdownPage(text, 'notes/css', 'notes/CSS.md')
  t.same(page.tags, ['after-list', 'after-quote', 'callout-tag', 'inline-ok'])
  t.equal(page.title, 'CSS', 'the # line in a list item fence is no heading')
  t.same(
    noteLinks(text, {}, 'notes/css').map((l) => l.targetText),
    ['Real Link'],
  )
})

t.test('tags differing only in case are one tag, written as first seen', async (t) => {
  t.same(parseMarkdownPage('---\ntags: [Project]\n---\n#project and #PROJECT, #tag #TAG #Tag\n', 'p').tags, ['Project', 'tag'])
})

t.test('front-matter tags: a leading # dropped, the older `tag` key read, values that are no text skipped', async (t) => {
  t.same(parseMarkdownPage('---\ntags: ["#beta", gamma, "##delta"]\n---\nBody.\n', 'p').tags, ['beta', 'delta', 'gamma'])
  t.same(parseMarkdownPage('---\ntags: "#one, two"\n---\n', 'p').tags, ['one', 'two'])
  t.same(parseMarkdownPage('---\ntag: single\n---\n', 'p').tags, ['single'])
  t.same(parseMarkdownPage('---\ntag: [a, b]\ntags: [b, c]\n---\n', 'p').tags, ['a', 'b', 'c'])
  t.same(parseMarkdownPage('---\ntags: [2024, {x: 1}, null, "#"]\n---\n', 'p').tags, ['2024'])
})

t.test('a page written back keeps `tag:` while it gives the tags, and drops it when the tags changed', async (t) => {
  const page = parseMarkdownPage('---\ntag: single\n---\nBody.\n', 'p')
  t.match(serializePage({ ...page, pageKind: 'markdown' }), /^tag: single$/m)
  const retagged = serializePage({ ...page, pageKind: 'markdown', tags: ['other'] })
  t.notMatch(retagged, /^tag:/m)
  t.same(parseMarkdownPage(retagged, 'p').tags, ['other'])
})

engineTest(t, 'an imported file gets its file-name title and inline tags', async (t, { db }) => {
  await importPage(db, { slug: 'notes/workspace', kind: 'markdown', content: 'Setup of my #desk.\n', path: 'notes/Workspace.md' })
  const page = await findPage(db, 'default', 'notes/workspace')
  t.equal(page!.title, 'Workspace')
  t.same(page!.tags, ['desk'])
})
