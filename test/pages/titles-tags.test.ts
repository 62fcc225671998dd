// test-runner: shares a process
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { importFolder } from '../../src/intake/import/index.js'
import { getBacklinks, getLinks, noteLinks } from '../../src/links/index.js'
import { journalFormatsFromConfig } from '../../src/convert/index.js'
import { findPage, importPage, normalizeSlug, parseMarkdownPage, serializePage } from '../../src/pages/index.js'
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

t.test('a long run of slashes inside a tag or a slug costs its length', async (t) => {
  // Trailing slashes were looked for at every slash of the run: the square of its length, about
  // an hour for these.
  const run = '/'.repeat(1_000_000)
  t.same(
    parseMarkdownPage(`#a${run}b and #c/d//`, 'p').tags.map((tag) => [tag.length, tag.slice(-3)]),
    [
      [1_000_002, '//b'],
      [3, 'c/d'],
    ],
  )
  t.throws(() => normalizeSlug(`a${run}b`), { code: 'invalid_slug' })
  t.equal(normalizeSlug('//notes/a//'), 'notes/a')
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

t.test("leading `key:: value` lines (Logseq's page properties) are the page's front matter", async (t) => {
  const page = parseMarkdownPage(
    [
      'title:: Apollo [[Program]]',
      'Alias:: Apollo, [[Moon, shot]], #Lunar',
      'tags:: project, [[deep space]]',
      'type:: [[project]]',
      'related:: [[A]], [[B]]',
      'empty::',
      'type:: ignored',
      '',
      '- Goal #[[moon landing]]',
      '  id:: 65f0',
      'status:: not a property',
    ].join('\n'),
    'pages/apollo',
    'pages/Apollo.md',
  )
  t.same(page.frontmatter, { title: 'Apollo [[Program]]', alias: ['Apollo', 'Moon, shot', 'Lunar'], tags: ['project', 'deep space'], type: 'project', related: '[[A]], [[B]]', empty: '' })
  t.equal(page.title, 'Apollo [[Program]]')
  t.equal(page.type, 'project')
  t.same(page.tags, ['deep space', 'moon landing', 'project'])
  t.equal(page.compiledTruth, '- Goal #[[moon landing]]\n  id:: 65f0\nstatus:: not a property', 'the body starts after the properties')

  const firstBlock = parseMarkdownPage('- alias:: Ada\n  type:: person\n- Wrote the first program\n', 'pages/ada-lovelace', 'pages/Ada Lovelace.md')
  t.same(firstBlock.frontmatter, { alias: ['Ada'], type: 'person' }, 'a first block of properties, as Logseq may write it')
  t.equal(firstBlock.compiledTruth, '- Wrote the first program')
  t.equal(firstBlock.title, 'Ada Lovelace')

  for (const text of ['std::vector is a template.\n', 'Intro\nkey:: value\n', 'a:: b\n', '---\ntitle: YAML\n---\nkey:: value\n']) {
    const parsed = parseMarkdownPage(text, 'x', 'x.md')
    t.notOk('key' in parsed.frontmatter, `no properties from ${JSON.stringify(text)}`)
  }
  t.same(parseMarkdownPage('a:: b\n', 'x', 'x.md').frontmatter, { a: 'b' }, 'a one-letter key is a key')
  t.same(parseMarkdownPage('key:: value\n', 'notes/k.txt', 'notes/k.txt').frontmatter, {}, 'plain text keeps its lines as text')
  t.same(parseMarkdownPage('__proto__:: x\nconstructor:: y\n', 'p', 'p.md').frontmatter, JSON.parse('{"__proto__":"x","constructor":"y"}'), 'any key is a plain key')

  const links = noteLinks('type:: note\nRelated:: [[A]], [[B]]\n\n- see [[C]]\n', { related: '[[A]], [[B]]', type: 'note' }, 'pages/x')
  t.same(
    links.map((l) => [l.type, l.targetText, l.line]),
    [
      ['related', 'A', 2],
      ['related', 'B', 2],
      ['links_to', 'C', 4],
    ],
    'a property names its pages once, as a typed link on its own line',
  )
})

t.test('a Logseq namespace file (`a___b.md`) is titled with its `/`', async (t) => {
  t.equal(parseMarkdownPage('- text\n', 'pages/space___rockets___saturn-v', 'pages/space___rockets___Saturn V.md').title, 'space/rockets/Saturn V')
  t.equal(parseMarkdownPage('- text\n', 'pages/a____b', 'pages/a____b.md').title, 'a____b', 'four underscores are not a namespace')
  t.equal(parseMarkdownPage('text\n', 'pages/a___b.txt', 'pages/a___b.txt').title, 'a___b', 'only markdown files are named so')
})

t.test('a page exported from a Notion database: its property lines under the title are its front matter', async (t) => {
  const path = 'Projects 8f3c2a1b4d5e6f708192a3b4c5d6e7f8/Launch plan aa11bb22cc33dd44ee55ff6677889900.md'
  const text = '# Launch plan\n\nStatus: In progress\nTags: Marketing, Q1\nDue Date: January 15, 2024\nOwner: Ana Lima\n\nWe launch in January.\n'
  const page = parseMarkdownPage(text, 'launch-plan', path)
  t.same(page.frontmatter, { status: 'In progress', tags: ['Marketing', 'Q1'], due_date: 'January 15, 2024', owner: 'Ana Lima' })
  t.same([page.title, page.tags], ['Launch plan', ['Marketing', 'Q1']])
  t.match(page.compiledTruth, /^# Launch plan\n\nStatus: In progress\n/, 'the lines stay where Notion wrote them')
  t.same(parseMarkdownPage(text, 'launch-plan', 'notes/Launch plan.md').frontmatter, {}, 'only in a file Notion named')
  t.same(parseMarkdownPage('# Plan\n\nNote: read this first.\n\nBody\n', 'p', path).frontmatter, {}, 'one line of that shape is a sentence')
  t.same(parseMarkdownPage('# Plan\n\nStatus: Done\nand then some text\n', 'p', path).frontmatter, {}, 'a block with a line that is not a property is text')
})

t.test("an Org file's header: :ID: and :ROAM_ALIASES: are aliases, #+filetags: tags; the text stays", async (t) => {
  const text = [
    ':PROPERTIES:',
    ':ID:       3F1C-9A2E',
    ':ROAM_ALIASES: "GNU Emacs" editor',
    ':END:',
    '#+title: Emacs',
    '#+filetags: :tools:editors:',
    '',
    '* Packages',
    ':PROPERTIES:',
    ':ID: heading-id',
    ':END:',
    '#+filetags: :late:',
  ].join('\n')
  const page = parseMarkdownPage(text, 'emacs.org', 'roam/emacs.org')
  t.same(page.frontmatter, { id: '3F1C-9A2E', aliases: ['3F1C-9A2E', 'GNU Emacs', 'editor'], tags: ['tools', 'editors'] }, 'a headline ends the header')
  t.same([page.title, page.tags], ['Emacs', ['editors', 'tools']])
  t.equal(page.compiledTruth, text, 'kept as written')
  t.same(parseMarkdownPage('---\ntitle: Y\n---\n:PROPERTIES:\n:ID: x\n:END:\n', 'y.org', 'y.org').frontmatter, { title: 'Y' }, 'YAML front matter wins')
  t.same(parseMarkdownPage(':PROPERTIES:\n:ID: x\n:END:\n', 'z.txt', 'z.txt').frontmatter, {}, 'only Org files')
})

t.test('an Org or AsciiDoc header line of many blanks costs its length', async (t) => {
  // Each was read by a pattern that tried every end of the value with every run of blanks after
  // it: the square of the line, about an hour for a title line of 1 MB (a few seconds for a
  // header line, as only the first 64 KB of the header are read).
  const blanks = ' '.repeat(1_000_000)
  t.equal(parseMarkdownPage(`#+title: a${blanks}\rb\n#+title:  Emacs  \n`, 'emacs.org', 'roam/emacs.org').title, 'Emacs', 'a value with a line break in it is none, as before')
  t.equal(parseMarkdownPage(`= Guide${blanks}!\n`, 'guide', 'docs/guide.adoc').title, `Guide${blanks}!`)
  const some = ' '.repeat(20_000)
  const header = [':PROPERTIES:', `:ID: x${some}\ry`, ':ID: 3F1C', ':END:', `#+filetags: :a:${some}\r:b:`, '#+filetags: :tools:'].join('\n')
  t.same(parseMarkdownPage(header, 'emacs.org', 'roam/emacs.org').frontmatter, { id: '3F1C', aliases: ['3F1C'], tags: ['tools'] })
})

t.test('a Logseq journal day is titled as Logseq shows it and its links name it', async (t) => {
  const title = (path: string) => parseMarkdownPage('- did things\n', path.replace(/\.md$/, '').toLowerCase(), path).title
  t.equal(title('journals/2024_01_15.md'), 'Jan 15th, 2024')
  t.equal(title('graph/journals/2024_03_01.md'), 'Mar 1st, 2024')
  t.equal(title('journals/2024_02_22.md'), 'Feb 22nd, 2024')
  t.equal(title('journals/2023_12_03.md'), 'Dec 3rd, 2023')
  t.equal(title('journals/2024_11_11.md'), 'Nov 11th, 2024')
  t.equal(title('journals/2024_05_13.md'), 'May 13th, 2024')
  t.equal(title('journals/2023_02_29.md'), '2023_02_29', 'no such day: the file name')
  t.equal(title('daily/2024_01_15.md'), '2024_01_15', 'only a journals folder')
  t.equal(parseMarkdownPage('# Monday\n', 'journals/2024_01_15', 'journals/2024_01_15.md').title, 'Monday', 'a heading still comes first')
})

t.test("a Logseq graph's own journal formats, from its config.edn", async (t) => {
  const formats = journalFormatsFromConfig(
    ['{:meta/version 1', ' ;; :journal/page-title-format "MMM do, yyyy"', ' :journal/page-title-format "EEEE, dd.MM.yyyy"', ' :journal/file-name-format "yyyy-MM-dd"}'].join('\n'),
  )
  t.same(formats, { fileName: 'yyyy-MM-dd', title: 'EEEE, dd.MM.yyyy' }, 'a commented line is not a setting')
  const title = (path: string, journal = formats) => parseMarkdownPage('- did things\n', path.replace(/\.md$/, '').toLowerCase(), path, journal).title
  t.equal(title('journals/2024-01-15.md'), 'Monday, 15.01.2024')
  t.equal(title('journals/2024_01_15.md'), '2024_01_15', 'a name in another format is no day')
  t.equal(title('journals/2024-02-30.md'), '2024-02-30', 'no such day: the file name')
  const fileName = 'yyyy_MM_dd'
  t.equal(title('journals/2024_01_05.md', { fileName, title: 'yyyy-MM-dd' }), '2024-01-05')
  t.equal(title('journals/2024_01_05.md', { fileName, title: 'MMMM do, yyyy' }), 'January 5th, 2024')
  t.equal(title('journals/2024_01_05.md', { fileName, title: 'EEE, MM/dd/yyyy' }), 'Fri, 01/05/2024')
  t.equal(title('journals/2024_01_05.md', { fileName, title: 'yyyy年MM月dd日' }), '2024年01月05日')
  t.equal(title('journals/2024_01_05.md', { fileName, title: "d 'de' MMMM yy" }), '5 de January 24', 'quoted text is literal')
  t.same(journalFormatsFromConfig(':journal/page-title-format "' + 'y'.repeat(10_000)), { fileName: 'yyyy_MM_dd', title: 'MMM do, yyyy' }, 'no setting: the defaults')
})

engineTest(t, 'a Logseq graph with its own day format: journal days are titled so, and links to days resolve', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-logseq-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await mkdir(join(root, 'graph', 'logseq'), { recursive: true })
  await mkdir(join(root, 'graph', 'journals'), { recursive: true })
  await mkdir(join(root, 'graph', 'pages'), { recursive: true })
  await writeFile(join(root, 'graph', 'logseq', 'config.edn'), '{:journal/page-title-format "yyyy-MM-dd"\n :journal/file-name-format "yyyy_MM_dd"}\n')
  await writeFile(join(root, 'graph', 'journals', '2024_01_15.md'), '- Planted the garlic\n')
  await writeFile(join(root, 'graph', 'pages', 'garden.md'), '- Garlic went in on [[2024-01-15]]\n')
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'markdown' })
  t.same(result.failed, [])
  t.equal((await findPage(db, 'default', 'graph/journals/2024_01_15'))?.title, '2024-01-15')
  t.same(
    (await getLinks(db, 'graph/pages/garden')).map((l) => l.toSlug),
    ['graph/journals/2024_01_15'],
    "a link to the day in the graph's format finds its journal page",
  )
})

engineTest(t, 'org-roam: an id: link finds the file that declares the ID, also when that file comes later', async (t, { db }) => {
  await importPage(db, { slug: 'daily/2024-01-15.org', kind: 'markdown', content: '#+title: 2024-01-15\nConfigured [[id:3F1C-9A2E][Emacs]] today.\n', path: 'daily/2024-01-15.org' })
  t.same(
    (await getLinks(db, 'daily/2024-01-15.org')).map((l) => [l.toSlug, l.targetText]),
    [[null, '3F1C-9A2E']],
    'unresolved while no file has the ID',
  )
  await importPage(db, { slug: 'emacs.org', kind: 'markdown', content: ':PROPERTIES:\n:ID: 3f1c-9a2e\n:END:\n#+title: Emacs\nSee [[file:daily/2024-01-15.org][the day]].\n', path: 'emacs.org' })
  t.same(
    (await getBacklinks(db, 'emacs.org')).map((l) => [l.fromSlug, l.linkSource, l.shownText]),
    [['daily/2024-01-15.org', 'org_link', 'Emacs']],
  )
  t.same(
    (await getLinks(db, 'emacs.org')).map((l) => [l.toSlug, l.line]),
    [['daily/2024-01-15.org', 5]],
  )
})

engineTest(t, 'a Logseq page: properties give title, aliases, type and tags, and links resolve by them', async (t, { db }) => {
  await importPage(db, {
    slug: 'pages/project-apollo',
    kind: 'markdown',
    content: 'alias:: Apollo, Moonshot\ntype:: project\ntags:: space\n\n- Led by [[Margaret]]\n',
    path: 'pages/Project Apollo.md',
  })
  await importPage(db, { slug: 'pages/margaret-hamilton', kind: 'markdown', content: '- alias:: Margaret\n  type:: person\n- Works on [[Moonshot]]\n', path: 'pages/Margaret Hamilton.md' })
  await importPage(db, { slug: 'pages/space___rockets___saturn-v', kind: 'markdown', content: '- used by [[Apollo]]\n', path: 'pages/space___rockets___Saturn V.md' })
  await importPage(db, { slug: 'journals/2024_01_15', kind: 'markdown', content: '- read [[space/rockets/Saturn V]] with [[margaret]]\n', path: 'journals/2024_01_15.md' })
  await importPage(db, { slug: 'pages/launch', kind: 'markdown', content: '- planned on [[Jan 15th, 2024]]\n', path: 'pages/launch.md' })
  t.same(
    (await getBacklinks(db, 'journals/2024_01_15')).map((l) => l.fromSlug),
    ['pages/launch'],
    'a link to the day finds its journal page',
  )
  const apollo = await findPage(db, 'default', 'pages/project-apollo')
  t.same([apollo!.type, apollo!.tags], ['project', ['space']])
  t.same(
    (await getBacklinks(db, 'pages/project-apollo')).map((l) => [l.fromSlug, l.targetText]),
    [
      ['pages/margaret-hamilton', 'Moonshot'],
      ['pages/space___rockets___saturn-v', 'Apollo'],
    ],
  )
  t.same((await getLinks(db, 'journals/2024_01_15')).map((l) => [l.toSlug, l.line]).sort(), [
    ['pages/margaret-hamilton', 1],
    ['pages/space___rockets___saturn-v', 1],
  ])
  t.same(
    (await getLinks(db, 'pages/margaret-hamilton')).map((l) => l.line),
    [3],
    'lines count the property lines',
  )
})
