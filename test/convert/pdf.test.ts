// test-runner: shares a process
import t from 'tap'
import { convert, convertBounded } from '../../src/convert/index.js'
import { makeEncryptedPdf, makeImageOnlyPdf, makePdf, makeTablePdf, makeTwoColumnPdf } from './pdf-fixtures.js'

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

t.test('PDF in two columns: each column read in turn, lines across the page where they sit', async (t) => {
  const numbered = (side: string, n: number, last = ''): string[] => Array.from({ length: n }, (_, i) => `${side} column line ${i + 1} of the study.`).concat(last ? [last] : [])
  const bytes = await makeTwoColumnPdf({
    across: {
      top: ['Tidal Friction and the Length of the Day', 'Abstract: the moon slows the earth, and this paper measures by how much over time.'],
      middle: 'Figure 1: the tidal bulge runs ahead of the moon, as both columns describe it in turn.',
    },
    left: { upper: numbered('Left upper', 8, 'and the bulge is drag-'), lower: numbered('Left lower', 6) },
    right: { upper: ['ged ahead of the moon by the spin.', ...numbered('Right upper', 8)], lower: numbered('Right lower', 6) },
  })
  const text = (await convert({ bytes, name: 'papers/tides.pdf' })).drafts[0]!.body
  const order = [
    'Tidal Friction',
    'Abstract:',
    'Left upper column line 1 ',
    'Left upper column line 8 ',
    'dragged ahead of the moon',
    'Right upper column line 1 ',
    'Right upper column line 8 ',
    'Figure 1:',
    'Left lower column line 1 ',
    'Left lower column line 6 ',
    'Right lower column line 1 ',
    'Right lower column line 6 ',
  ]
  const at = order.map((s) => text.indexOf(s))
  t.notOk(at.includes(-1), `every line is there: ${JSON.stringify(order.filter((_, i) => at[i] === -1))}`)
  t.same(
    [...at].sort((a, b) => a - b),
    at,
    'the title and abstract, the left column, then the right, the figure, then both columns below it',
  )
  t.notMatch(text, /of the study\. Right/, 'no line mixes the two columns')
  const single = await convert({
    bytes: await makePdf([{ lines: ['A short line on the left.', 'Another short line on the left.', 'This line runs right across the middle of the page and past it.'] }]),
    name: 'single.pdf',
  })
  const rows: Array<[string, string]> = Array.from({ length: 8 }, (_, i) => [`Field ${i + 1}`, `${i + 1} bytes`])
  const table = await convert({ bytes: await makeTablePdf(rows), name: 'table.pdf' })
  t.match(table.drafts[0]!.body, /Field 1 1 bytes\nField 2 2 bytes\n/, 'a table of short cells is read row by row, not as two columns')
  t.match(single.drafts[0]!.body, /A short line on the left\.\nAnother short line on the left\.\nThis line runs right across/, 'a page of one column reads top to bottom')
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
