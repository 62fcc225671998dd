// test-runner: shares a process
import t from 'tap'
import { convertBounded } from '../../src/convert/index.js'
import { docxParts, zip } from './docx-fixtures.js'

t.test('docx: headings, paragraphs, links and tables as markdown; title from the first heading', async (t) => {
  const r = await convertBounded({ bytes: zip(docxParts()), name: 'notes/review.docx' })
  t.equal(r.format, 'docx')
  const d = r.drafts[0]!
  t.equal(d.title, 'Design Review')
  t.match(d.frontmatter, { type: 'document', source_format: 'docx' })
  t.match(d.body, /^# Design Review\n\n## Decisions\n\nWe chose the second option\./)
  t.match(d.body, /\[the spec\]\(https:\/\/example\.org\/spec\)/)
  t.match(d.body, /\| Item \| Owner \|\n\| --- \| --- \|\n\| Parser \| Ada \|/)
})

t.test('docx: expansion bombs, broken archives and non-zips are refused with codes', async (t) => {
  await t.rejects(convertBounded({ bytes: zip({ ...docxParts(), 'word/big.bin': Buffer.alloc(10) }, 3_000_000_000), name: 'bomb.docx' }), { code: 'convert_archive_bomb' })
  await t.rejects(convertBounded({ bytes: new TextEncoder().encode('not a zip at all'), name: 'x.docx' }), { code: 'convert_corrupt' })
  await t.rejects(convertBounded({ bytes: zip({ 'a.txt': 'hello' }), name: 'empty.docx' }), { code: 'convert_corrupt' })
})
