// test-runner: shares a process
import t from 'tap'
import { noteLinks, type NoteLinkDraft } from '../../src/links/note-links.js'
import { parseFrontmatter } from '../../src/util/frontmatter-doc.js'
import { maskInlineCode } from '../../src/util/markdown-prose.js'

function parse(content: string, slug = 'notes/here'): NoteLinkDraft[] {
  return noteLinks(content, parseFrontmatter(content).data, slug)
}

const pick = (l: NoteLinkDraft) => [l.type, l.targetText, l.key, l.relKey, l.anchor, l.shownText]

t.test('wikilink forms', async (t) => {
  const cases: Array<[string, unknown[]]> = [
    ['[[Target]]', ['links_to', 'Target', 'target', 'notes/target', null, null]],
    ['[[Target|shown text]]', ['links_to', 'Target', 'target', 'notes/target', null, 'shown text']],
    ['[[Target#Some Heading]]', ['links_to', 'Target', 'target', 'notes/target', 'Some Heading', null]],
    ['[[Target#^block-1|see]]', ['links_to', 'Target', 'target', 'notes/target', '^block-1', 'see']],
    ['[[#Local Heading]]', ['links_to', '', 'notes/here', null, 'Local Heading', null]],
    ['![[Target]]', ['embeds', 'Target', 'target', 'notes/target', null, null]],
    ['![[img.png]]', ['embeds', 'img.png', 'img.png', 'notes/img.png', null, null]],
    ['[[Ada Lovelace.md]]', ['links_to', 'Ada Lovelace.md', 'ada-lovelace', 'notes/ada-lovelace', null, null]],
    ['[[people/Ada Lovelace]]', ['links_to', 'people/Ada Lovelace', 'people/ada-lovelace', 'notes/people/ada-lovelace', null, null]],
    ['[[../people/ada]]', ['links_to', '../people/ada', 'people/ada', null, null, null]],
    ['| [[Target\\|in a table]] |', ['links_to', 'Target', 'target', 'notes/target', null, 'in a table']],
  ]
  for (const [text, expected] of cases) t.same(parse(text).map(pick), [expected], text)
  t.same(parse('[[]] and [[ ]] and [[#]]'), [], 'empty links are ignored')
  t.same(parse('[[Target]]', 'root').map(pick), [['links_to', 'Target', 'target', null, null, null]], 'a root page has no relative reading')
})

t.test("Logseq's page embed is an embed", async (t) => {
  t.same(
    parse('- {{embed [[Project Apollo]]}} and {{ embed [[B]] }} but not {{query [[C]]}}').map((l) => [l.type, l.targetText]),
    [
      ['embeds', 'Project Apollo'],
      ['embeds', 'B'],
      ['links_to', 'C'],
    ],
  )
})

t.test('markdown links to local files', async (t) => {
  const cases: Array<[string, unknown[] | null]> = [
    ['[text](Other%20Note.md)', ['links_to', 'Other Note.md', 'notes/other-note', 'other-note', null, 'text']],
    ['[up](../folder/note)', ['links_to', '../folder/note', 'folder/note', null, null, 'up']],
    ['[h](note.md#the%20heading)', ['links_to', 'note.md', 'notes/note', 'note', 'the heading', 'h']],
    ['[abs](/people/ada.md)', ['links_to', '/people/ada.md', 'people/ada', null, null, 'abs']],
    ['[here](#local)', ['links_to', '', 'notes/here', null, 'local', 'here']],
    ['![pic](./img/a%20b.png "title")', ['embeds', './img/a b.png', 'notes/img/a-b.png', null, null, 'pic']],
    ['[angle](<My Note.md>)', ['links_to', 'My Note.md', 'notes/my-note', 'my-note', null, 'angle']],
    ['[web](https://example.org/x.md)', null],
    ['[mail](mailto:a@b.c)', null],
    ['[proto](//host/x)', null],
  ]
  for (const [text, expected] of cases) t.same(parse(text).map(pick), expected ? [expected] : [], text)
})

t.test('reference-style links: each definition of a local file is a link at its line', async (t) => {
  const cases: Array<[string, unknown[] | null]> = [
    ['[ref-a]: proj.apollo.md "Apollo"', ['links_to', 'proj.apollo.md', 'notes/proj.apollo', 'proj.apollo', null, 'ref-a']],
    ['  [Other]: <../Other Note.md>', ['links_to', '../Other Note.md', 'other-note', null, null, 'Other']],
    ["[h]: note.md#part 'Title'", ['links_to', 'note.md', 'notes/note', 'note', 'part', 'h']],
    ['[web]: https://example.org/x.md', null],
    ['[^1]: A footnote, not a link.', null],
    ['[Note]: this is prose, not a definition', null],
    ['    [code]: indented.md', null],
  ]
  for (const [text, expected] of cases) t.same(parse(text).map(pick), expected ? [expected] : [], text)
  const foam = parse('See [[proj.apollo]] and [the design][d].\n\n[d]: design.md\n[proj.apollo]: proj.apollo.md "Apollo"\n')
  t.same(
    foam.map((l) => [l.targetText, l.line]),
    [
      ['proj.apollo', 1],
      ['design.md', 3],
    ],
    "Foam's definitions beside its wikilinks add no second link",
  )
})

t.test('Org links in an .org note: file, id, a heading of the file, names; not other schemes, not src blocks', async (t) => {
  const text = [
    '#+title: Emacs',
    'Uses [[id:7D2E4F60-1111][Org-roam]] and [[file:daily/2024-01-15.org::*Morning][that day]].',
    'See [[https://www.gnu.org/][the site]], [[elisp:(delete-file "x")][run]] and [[*Packages]].',
    'Also [[Some Page]], [[Other Page][shown]] and [[file:../up.org]].',
    '[markdown](x.md) is not Org.',
    '#+BEGIN_SRC emacs-lisp',
    '(setq x "[[id:in-code]]")',
    '#+END_SRC',
    'After the block: [[id:after]]',
  ].join('\n')
  t.same(
    noteLinks(text, {}, 'notes/emacs.org').map((l) => [l.source, l.targetText, l.key, l.anchor, l.shownText, l.line]),
    [
      ['org_link', '7D2E4F60-1111', '7d2e4f60-1111', null, 'Org-roam', 2],
      ['org_link', 'daily/2024-01-15.org', 'notes/daily/2024-01-15.org', 'Morning', 'that day', 2],
      ['org_link', '', 'notes/emacs.org', 'Packages', null, 3],
      ['org_link', 'Some Page', 'some-page', null, null, 4],
      ['org_link', 'Other Page', 'other-page', null, 'shown', 4],
      ['org_link', '../up.org', 'up.org', null, null, 4],
      ['org_link', 'after', 'after', null, null, 9],
    ],
  )
  t.same(
    noteLinks('[[file:a.org][A]] and [b](b.md)\n', {}, 'notes/n').map((l) => [l.source, l.targetText]),
    [['markdown_link', 'b.md']],
    'a markdown note does not read Org links',
  )
})

t.test('code is not linked: fences (``` and ~~~, unclosed) and inline code', async (t) => {
  const text = ['[[A]] `[[not-inline]]` ``[[not]] either``', '```yaml', '[[in-fence]]', '```', '~~~~', '```', '[[still-in-tilde-fence]]', '~~~~', '[[B]]', '```', '[[unclosed]]'].join('\n')
  t.same(
    parse(text).map((l) => l.targetText),
    ['A', 'B'],
  )
})

t.test('lines count from the top of the file; front matter properties; timeline field; context; duplicates once', async (t) => {
  const text = [
    '---',
    'title: Here',
    'related: "[[Project X]]"',
    'people:',
    '  - "[[Ada]]"',
    '  - plain text',
    'aliases: [not a link]',
    '---',
    '# Here',
    '',
    'See [[Ada]] and [link](ada.md) and [[Ada]] again.',
    '',
    '## Timeline',
    '- 2024: met [[Bob|Robert]]',
  ].join('\n')
  const links = parse(text)
  t.same(
    links.map((l) => [l.type, l.targetText, l.field, l.line, l.source]),
    [
      ['related', 'Project X', 'frontmatter', 3, 'frontmatter'],
      ['people', 'Ada', 'frontmatter', 4, 'frontmatter'],
      ['links_to', 'Ada', 'compiled_truth', 11, 'wikilink'],
      ['links_to', 'ada.md', 'compiled_truth', 11, 'markdown_link'],
      ['links_to', 'Bob', 'timeline', 14, 'wikilink'],
    ],
  )
  t.equal(links[2]!.context, 'See [[Ada]] and [link](ada.md) and [[Ada]] again.')
  t.equal(links.length, 5, 'the markdown link to ada.md has its own key (notes/ada): both kept; the repeated [[Ada]] once')
})

t.test('odd input: a link to itself, odd characters, very long lines, 10,000 links', async (t) => {
  t.same(
    parse('[[here]]').map((l) => l.key),
    ['here'],
  )
  t.same(parse('[[Wh@t?! ünïcödé (draft) #1]]').map(pick), [['links_to', 'Wh@t?! ünïcödé (draft)', 'wh@t?!-ünïcödé-(draft)', 'notes/wh@t?!-ünïcödé-(draft)', '1', null]])
  const long = `${'x'.repeat(5000)} [[Far]] ${'y'.repeat(5000)}`
  const [far] = parse(long)
  t.ok(far!.context.length <= 162 && far!.context.includes('[[Far]]'), 'context is short and around the link')
  const many = Array.from({ length: 10_000 }, (_, i) => `[[n${i}]]`).join(' ')
  t.equal(parse(many).length, 10_000)
})

t.test('inline code pairs runs of backticks by length, in one pass over a line', async (t) => {
  t.same(
    ['see `[[In Code]]` and [[Out]]', 'a ``code ` [[Still Code]]`` [[After]]', 'an open `` run [[Kept]]'].map((line) => parse(line).map((l) => l.targetText)),
    [['Out'], ['After'], ['Kept']],
    'a run closes only on a run of its own length',
  )
  t.equal(maskInlineCode('x ``a` `b`` `c'), `x${' '.repeat(11)}\`c`, 'what CommonMark calls code is masked, an unpaired run is not')
  // Before, a regular expression tried every run length at every backtick: cubic in the line,
  // about 50 s for 5,000 backticks, and this line would have held the import for hours.
  const line = `x${'`'.repeat(200_000)} [[Past The Backticks]]`
  t.same(
    parse(line).map((l) => l.targetText),
    ['Past The Backticks'],
  )
})

t.test('a `<…>` destination holds no `<`, so a line of many `[a](<` costs its length', async (t) => {
  // Each `<` was read to the next `>`: the square of the line, about an hour for this one.
  t.same(
    parse(`${'[a](<'.repeat(200_000)} [b](<my notes/b.md>) [c](<x <y.md>)`).map((l) => l.targetText),
    ['my notes/b.md'],
  )
})

t.test('an Org file: link of many `::` before a carriage return costs its length', async (t) => {
  // The pattern looked for the end of the line after every `::`: about an hour for this one.
  const hostile = `[[file:a${'::'.repeat(500_000)}\rb][x]] and [[file:notes/b.org::*Top][B]]`
  t.same(
    parse(hostile, 'notes/here.org').map((l) => [l.targetText, l.anchor]),
    [['notes/b.org', 'Top']],
  )
})

t.test('a long run of backticks or tildes before a carriage return is read once', async (t) => {
  // The line is not a fence (a fence line holds no line break), and reading it cost the square of
  // the run: about an hour for this one.
  for (const run of ['`'.repeat(1_000_000), '~'.repeat(1_000_000)]) {
    t.same(
      parse(`${run}\rx\n[[After The Run]]`).map((l) => l.targetText),
      ['After The Run'],
    )
  }
  t.same(
    parse('```\r[[In Code]]\n[[Out]]').map((l) => l.targetText),
    ['In Code', 'Out'],
    'such a line opens no fence',
  )
})
