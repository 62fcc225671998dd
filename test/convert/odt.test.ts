// test-runner: shares a process
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { zip } from './docx-fixtures.js'

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"'

/** content.xml as LibreOffice writes it: styles first, then the text body. */
const content = `<?xml version="1.0" encoding="UTF-8"?>
<office:document-content ${NS} office:version="1.3">
<office:automatic-styles><style:style style:name="P1"/></office:automatic-styles>
<office:body><office:text>
<text:sequence-decls><text:sequence-decl text:display-outline-level="0" text:name="Table"/></text:sequence-decls>
<text:h text:style-name="H1" text:outline-level="1">Field notes</text:h>
<text:p text:style-name="P1">Tides at <text:span text:style-name="T1">dawn</text:span>,<text:s text:c="3"/>see <text:a xlink:type="simple" xlink:href="https://example.org/tides">the table</text:a>.<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>A footnote.</text:p></text:note-body></text:note></text:p>
<text:h text:outline-level="2">Birds &amp; shells</text:h>
<text:list text:style-name="L1">
<text:list-item><text:p>Oystercatcher</text:p>
<text:list><text:list-item><text:p>black and white</text:p></text:list-item></text:list>
</text:list-item>
<text:list-item><text:p>Curlew<text:line-break/>long bill</text:p></text:list-item>
</text:list>
<table:table table:name="Table1"><table:table-column/>
<table:table-row><table:table-cell><text:p>Time</text:p></table:table-cell><table:table-cell><text:p>Height</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>06:10</text:p></table:table-cell><table:table-cell><text:p>1.2 m | rising</text:p></table:table-cell></table:table-row>
</table:table>
<text:p/>
</office:text></office:body></office:document-content>`

t.test('an OpenDocument text: headings, paragraphs, nested lists, links and tables as markdown', async (t) => {
  t.equal(converterFor('papers/Field notes.odt'), 'odt')
  const bytes = zip({
    mimetype: 'application/vnd.oasis.opendocument.text',
    'content.xml': content,
    'meta.xml': '<office:document-meta><office:meta><dc:title>Shore walk</dc:title></office:meta></office:document-meta>',
  })
  const r = await convertBounded({ bytes, name: 'papers/Field notes.odt' })
  t.equal(r.format, 'odt')
  t.same(
    r.drafts.map((d) => [d.title, d.frontmatter]),
    [['Shore walk', { type: 'document' }]],
  )
  t.equal(
    r.drafts[0]!.body,
    [
      '# Field notes',
      '',
      'Tides at dawn, see [the table](https://example.org/tides).',
      '',
      '## Birds & shells',
      '',
      '- Oystercatcher',
      '  - black and white',
      '- Curlew long bill',
      '',
      '| Time | Height |',
      '| --- | --- |',
      '| 06:10 | 1.2 m \\| rising |',
      '',
    ].join('\n'),
    'the footnote, styles and the empty paragraph leave nothing behind',
  )
  const untitled = await convertBounded({ bytes: zip({ 'content.xml': content.replace(/<text:h text:style-name="H1"[^]*?<\/text:h>/, '') }), name: 'Field notes.odt' })
  t.equal(untitled.drafts[0]!.title, 'Field notes', 'the file name when neither the properties nor a first heading name it')
  t.match(untitled.drafts[0]!.body, /^# Field notes\n\nTides at dawn/)
  await t.rejects(convertBounded({ bytes: zip({ 'word/document.xml': '<w:document/>' }), name: 'x.odt' }), { code: 'convert_unsupported' })
})
