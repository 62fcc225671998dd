// test-runner: shares a process
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { zip } from './docx-fixtures.js'

const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

function shape(placeholder: string | null, paragraphs: string[]): string {
  const ph = placeholder === null ? '' : `<p:nvSpPr><p:cNvPr id="2" name="x"/><p:cNvSpPr/><p:nvPr><p:ph type="${placeholder}"/></p:nvPr></p:nvSpPr>`
  return `<p:sp>${ph}<p:txBody><a:bodyPr/>${paragraphs.join('')}</p:txBody></p:sp>`
}

const run = (text: string) => `<a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r>`

const slideOne = `<p:sld ${NS}><p:cSld><p:spTree>${shape('ctrTitle', [`<a:p>${run('Quarterly &amp; yearly')}</a:p>`])}${shape('body', [
  `<a:p>${run('Revenue grew')}</a:p>`,
  `<a:p><a:pPr lvl="1"/>${run('mostly in ')}${run('Europe')}</a:p>`,
  '<a:p/>',
  `<a:p>${run('Costs')}<a:br/>${run('fell')}</a:p>`,
])}</p:spTree></p:cSld></p:sld>`

const slideTwo = `<p:sld ${NS}><p:cSld><p:spTree>${shape('title', [`<a:p>${run('Numbers')}</a:p>`])}<p:graphicFrame><a:graphic><a:graphicData><a:tbl>
<a:tr h="1"><a:tc><a:txBody><a:p>${run('Region')}</a:p></a:txBody></a:tc><a:tc><a:txBody><a:p>${run('Growth')}</a:p></a:txBody></a:tc></a:tr>
<a:tr h="1"><a:tc><a:txBody><a:p>${run('Europe')}</a:p></a:txBody></a:tc><a:tc><a:txBody><a:p>${run('12 | 14 %')}</a:p></a:txBody></a:tc></a:tr>
</a:tbl></a:graphicData></a:graphic></p:graphicFrame></p:spTree></p:cSld></p:sld>`

const notes = `<p:notes ${NS}><p:cSld><p:spTree>${shape('sldImg', [])}${shape('body', [`<a:p>${run('Say the numbers slowly.')}</a:p>`])}${shape('sldNum', [`<a:p>${run('2')}</a:p>`])}</p:spTree></p:cSld></p:notes>`

/** A deck whose second file is its first slide, as after reordering slides in PowerPoint. */
function deck(): Buffer {
  return zip({
    '[Content_Types].xml': '<Types/>',
    'docProps/core.xml': '<cp:coreProperties xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Q1 review</dc:title></cp:coreProperties>',
    'ppt/presentation.xml': `<p:presentation ${NS} xmlns:r="${REL}"><p:sldIdLst><p:sldId id="256" r:id="rId3"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `<Relationships><Relationship Id="rId2" Type="${REL}/slide" Target="slides/slide1.xml"/><Relationship Id="rId3" Type="${REL}/slide" Target="slides/slide2.xml"/></Relationships>`,
    'ppt/slides/slide2.xml': slideOne,
    'ppt/slides/slide1.xml': slideTwo,
    'ppt/slides/_rels/slide1.xml.rels': `<Relationships><Relationship Id="rId1" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide1.xml"/></Relationships>`,
    'ppt/notesSlides/notesSlide1.xml': notes,
  })
}

t.test('a PowerPoint deck: slides in the deck order, titles, levels, tables and speaker notes', async (t) => {
  t.equal(converterFor('talks/Q1 review.pptx'), 'pptx')
  const r = await convertBounded({ bytes: deck(), name: 'talks/Q1 review.pptx' })
  t.equal(r.format, 'pptx')
  t.same(r.counts, { slides: 2 })
  t.same(
    r.drafts.map((d) => [d.title, d.frontmatter]),
    [['Q1 review', { type: 'presentation', slides: 2 }]],
  )
  t.equal(
    r.drafts[0]!.body,
    [
      '# Q1 review',
      '',
      '## Slide 1: Quarterly & yearly',
      '',
      '- Revenue grew',
      '  - mostly in Europe',
      '- Costs fell',
      '',
      '## Slide 2: Numbers',
      '',
      '| Region | Growth |',
      '| --- | --- |',
      '| Europe | 12 \\| 14 % |',
      '',
      'Notes: Say the numbers slowly.',
      '',
    ].join('\n'),
  )
})

t.test('what is not a deck is refused, and a slide left open does not hold the converter', async (t) => {
  await t.rejects(convertBounded({ bytes: zip({ 'word/document.xml': '<w:document/>' }), name: 'x.pptx' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: Buffer.from('not a zip'), name: 'x.pptx' }), { code: 'convert_corrupt' })
  // Two hundred thousand paragraphs and shapes that never close: read in one pass, not once from each.
  const open = `<p:sld ${NS}><p:cSld><p:spTree>${Array.from({ length: 200_000 }, (_, i) => `<p:sp><a:p><a:r><a:t>${i}`).join('')}`
  const bytes = zip({
    'ppt/presentation.xml': `<p:presentation ${NS} xmlns:r="${REL}"><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `<Relationships><Relationship Id="rId2" Target="slides/slide1.xml"/></Relationships>`,
    'ppt/slides/slide1.xml': open,
  })
  const r = await convertBounded({ bytes, name: 'open.pptx' }, { maxBytes: 50_000_000, maxDrafts: 10, timeMs: 60_000 })
  t.equal(r.drafts[0]!.body, '# open\n\n## Slide 1\n', 'a slide with nothing closed has no text')
})
