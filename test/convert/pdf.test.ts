import t from 'tap'
import { convert, convertBounded } from '../../src/convert/index.js'
import { makeEncryptedPdf, makeImageOnlyPdf, makePdf } from './pdf-fixtures.js'

const body = (n: number): string[] => [`This is the body of page ${n}, with a hyphen-`, 'ated word split across lines.', `Second paragraph line on page ${n}.`]

t.test('PDF: pages in order under page headings, metadata title, running heads and hyphens cleaned', async (t) => {
  const bytes = await makePdf([{ heading: 'Introduction', lines: body(1) }, { lines: body(2) }, { lines: body(3) }], { title: 'Quarterly Numbers', author: 'Ada' })
  const r = await convert({ bytes, name: 'reports/q1.pdf' })
  t.equal(r.format, 'pdf')
  t.equal(r.drafts.length, 1)
  const d = r.drafts[0]!
  t.equal(d.title, 'Quarterly Numbers')
  t.match(d.frontmatter, { type: 'document', source_format: 'pdf', pages: 3, author: 'Ada', created: '2024-03-01' })
  t.match(d.body, /^# Quarterly Numbers\n\n## Page 1\n\nIntroduction/)
  t.ok(d.body.indexOf('## Page 1') < d.body.indexOf('## Page 2') && d.body.indexOf('## Page 2') < d.body.indexOf('## Page 3'))
  t.match(d.body, /body of page 2, with a hyphenated word/)
  t.notMatch(d.body, /ACME Quarterly Report/, 'running header dropped')
  t.notMatch(d.body, /Page \d of 3/, 'running footer dropped')
  t.equal(r.counts.pdf_pages, 3)
})

t.test('PDF title: first heading-like line without metadata, else the file name', async (t) => {
  const headed = await convert({ bytes: await makePdf([{ heading: 'A Study of Things', lines: ['plain text here.'] }]), name: 'x.pdf' })
  t.equal(headed.drafts[0]!.title, 'A Study of Things')
})

t.test('PDF failures have their own codes, also through the bounded worker', async (t) => {
  await t.rejects(convertBounded({ bytes: await makeEncryptedPdf(), name: 'locked.pdf' }), { code: 'pdf_encrypted' })
  const whole = await makePdf([{ lines: body(1) }, { lines: body(2) }])
  await t.rejects(convertBounded({ bytes: whole.slice(0, Math.floor(whole.length / 3)), name: 'cut.pdf' }), { code: 'pdf_corrupt' })
  await t.rejects(convertBounded({ bytes: new TextEncoder().encode('%PDF-1.7\ngarbage'), name: 'junk.pdf' }), { code: 'pdf_corrupt' })
  await t.rejects(convertBounded({ bytes: await makeImageOnlyPdf(), name: 'scan.pdf' }), { code: 'pdf_no_text' })
  await t.rejects(convertBounded({ bytes: whole, name: 'big.pdf' }, { maxBytes: 10, maxDrafts: 1 }), { code: 'convert_too_large' })
  await t.rejects(convertBounded({ bytes: whole, name: 'slow.pdf' }, { maxBytes: 1e9, maxDrafts: 1, timeMs: 1 }), { code: 'convert_timeout' })
  const ok = await convertBounded({ bytes: whole, name: 'fine.pdf' })
  t.equal(ok.drafts[0]!.frontmatter.pages, 2)
})
