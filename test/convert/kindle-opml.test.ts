// test-runner: shares a process
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const SEP = '=========='

/** `My Clippings.txt` as a Kindle writes it: a BOM, CRLF lines, a highlight widened later. */
const clippings = [
  '\ufeffThinking, Fast and Slow (Daniel Kahneman)',
  '- Your Highlight on page 20 | Location 300-301 | Added on Monday, January 1, 2024 10:00:00 AM',
  '',
  'Nothing in life is as important',
  SEP,
  'Thinking, Fast and Slow (Daniel Kahneman)',
  '- Your Highlight on page 20 | Location 300-302 | Added on Monday, January 1, 2024 10:00:30 AM',
  '',
  'Nothing in life is as important as you think it is, while you are thinking about it.',
  SEP,
  'Thinking, Fast and Slow (Daniel Kahneman)',
  '- Your Note on page 20 | Location 302 | Added on Monday, January 1, 2024 10:01:00 AM',
  '',
  'The focusing illusion.',
  SEP,
  'Thinking, Fast and Slow (Daniel Kahneman)',
  '- Your Highlight on page 3 | Location 40-41 | Added on Tuesday, January 2, 2024 08:00:00 PM',
  '',
  'A reliable way to make people believe in falsehoods is frequent repetition.',
  SEP,
  'Thinking, Fast and Slow (Daniel Kahneman)',
  '- Your Bookmark on page 50 | Location 700 | Added on Tuesday, January 2, 2024 09:00:00 PM',
  '',
  '',
  SEP,
  'Meditations (Marcus Aurelius)',
  '- Your Highlight at location 120-121 | Added on Friday, March 1, 2024 07:00:00 AM',
  '',
  'You have power over your mind - not outside events.',
  SEP,
  '',
].join('\r\n')

t.test("a Kindle's My Clippings.txt: a page per book, highlights in reading order, notes under them", async (t) => {
  t.equal(converterFor('documents/My Clippings.txt'), 'kindle')
  const r = await convertBounded({ bytes: bytes(clippings), name: 'documents/My Clippings.txt' })
  t.equal(r.format, 'kindle')
  t.same(
    r.drafts.map((d) => [d.slugHint, d.title]),
    [
      ['kindle/thinking-fast-and-slow', 'Thinking, Fast and Slow'],
      ['kindle/meditations', 'Meditations'],
    ],
  )
  t.same(r.counts, { books: 2, secrets_scrubbed: 0, highlights: 3, annotations: 1, bookmarks: 1 })
  const book = r.drafts[0]!
  t.same(book.frontmatter, { type: 'highlights', highlights: 2, author: 'Daniel Kahneman', last_added: 'Tuesday, January 2, 2024 09:00:00 PM' })
  t.equal(
    book.body,
    [
      '# Thinking, Fast and Slow',
      '',
      'by Daniel Kahneman',
      '',
      '> A reliable way to make people believe in falsehoods is frequent repetition.',
      '',
      '— page 3 · location 40-41',
      '',
      '> Nothing in life is as important as you think it is, while you are thinking about it.',
      '',
      '— page 20 · location 300-302',
      '',
      '**Note** (page 20 · location 302): The focusing illusion.',
      '',
    ].join('\n'),
    'the narrower first try of a highlight is dropped, and the note follows its highlight',
  )
  t.match(r.drafts[1]!.body, /> You have power over your mind - not outside events\.\n\n— location 120-121/)
  const foreign = await convertBounded({ bytes: bytes('Ein Buch (Autor)\n- Ihre Markierung bei Position 10-11\n\nText\n==========\n'), name: 'My Clippings.txt' })
  t.equal(foreign.format, 'text', 'clippings in a language not read stay one page of text')
})

const outline = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0">
  <head><title>Projects &amp; ideas</title></head>
  <body>
    <outline text="Brain">
      <outline text="Ship the &lt;b&gt;importer&lt;/b&gt;" _complete="true"/>
      <outline text="Write docs" _note="For people coming&#10;from Workflowy"/>
      <outline text="a &gt; b, still one item"></outline>
    </outline>
    <outline text="Reading" type="link" url="https://example.org/list"/>
    <outline text="Feeds">
      <outline text="A blog" type="rss" xmlUrl="https://example.org/feed.xml" htmlUrl="https://example.org/"/>
    </outline>
  </body>
</opml>
`

t.test('an OPML outline: a nested list, notes, completed items and links', async (t) => {
  t.equal(converterFor('exports/workflowy.opml'), 'opml')
  const r = await convertBounded({ bytes: bytes(outline), name: 'exports/workflowy.opml' })
  t.equal(r.format, 'opml')
  t.same(
    r.drafts.map((d) => [d.title, d.frontmatter]),
    [['Projects & ideas', { type: 'outline', items: 7 }]],
  )
  t.equal(
    r.drafts[0]!.body,
    [
      '# Projects & ideas',
      '',
      '- Brain',
      '  - [x] Ship the **importer**',
      '  - Write docs',
      '    For people coming',
      '    from Workflowy',
      '  - a > b, still one item',
      '- [Reading](https://example.org/list)',
      '- Feeds',
      '  - [A blog](https://example.org/)',
      '',
    ].join('\n'),
  )
  await t.rejects(convertBounded({ bytes: bytes('<opml><body></body></opml>'), name: 'empty.opml' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes('<html></html>'), name: 'not.opml' }), { code: 'convert_unsupported' })
  const opened = `<opml><body>${'<outline text="'.repeat(30_000)}${'<outline '.repeat(100_000)}</body></opml>`
  await t.rejects(convertBounded({ bytes: bytes(opened), name: 'opened.opml' }), { code: 'convert_unsupported' }, 'outlines never closed are read once each')
})
