// test-runner: shares a process
import t from 'tap'
import { convertBounded, isSinglePageDocumentName } from '../../src/convert/index.js'
import { notebookV3, notebookV4 } from './notebook-fixtures.js'

const bytes = (text: string) => new TextEncoder().encode(text)

t.test('a notebook: markdown cells as written, code fenced in its language, then the text it printed', async (t) => {
  const r = await convertBounded({ bytes: bytes(notebookV4()), name: 'analysis/Churn Model.ipynb' })
  t.equal(r.format, 'ipynb')
  t.equal(r.drafts.length, 1)
  const d = r.drafts[0]!
  t.equal(d.title, 'Customer churn model', 'the first heading is the title')
  t.equal(d.slugHint, 'churn model')
  t.same(d.frontmatter, { type: 'notebook', source_format: 'ipynb', language: 'python' })
  t.match(d.body, /^# Customer churn model\n\nWe fit a \*\*logistic regression\*\* on the 2024 cohort\. See \[the notes\]\(\.\.\/notes\/churn\.md\)\.\n\n```python\nimport pandas as pd\n/)
  t.match(d.body, /df\.head\(1\)\n```\n\n```output\nloaded 10000 rows\n {3}tenure {2}churned\n0 {6}12 {8}0\n```/, 'stdout, then the result as text')
  t.match(d.body, /```output\n<Figure size 640x480 with 1 Axes>\nValueError: solver lbfgs failed to converge\n```/, 'a figure by its text, an error by name and message')
  t.notMatch(d.body, /<script>|<table>|iVBORw0KGgo|\u001b/, 'no HTML, picture data or terminal codes')
  t.match(d.body, /\n(epoch\n){332}epoch\n… \(4002 more characters of output\)\n```/, 'a long output keeps its lines within 2,000 characters')
  t.match(d.body, /```\nraw text for nbconvert\n```\n\n## Results\nAUC was 0\.81\.\n$/)
  t.notMatch(d.body, /```python\n```/, 'an empty cell leaves nothing')
})

t.test('an nbformat 3 notebook: worksheets, heading cells, pyout', async (t) => {
  const d = (await convertBounded({ bytes: bytes(notebookV3()), name: 'old.ipynb' })).drafts[0]!
  t.equal(d.title, 'old', 'no first-level heading: the file name')
  t.equal(d.body, '# old\n\n## Setup\n\n```python\nx = 40 + 2\nx\n```\n\n```output\n42\n```\n')
  t.same(d.frontmatter, { type: 'notebook', source_format: 'ipynb' })
})

t.test('a notebook that is not one is refused with a code', async (t) => {
  await t.rejects(convertBounded({ bytes: bytes('{"cells": [ broken'), name: 'a.ipynb' }), { code: 'convert_corrupt' })
  await t.rejects(convertBounded({ bytes: bytes('{"data": []}'), name: 'b.ipynb' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes('[1, 2]'), name: 'c.ipynb' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: bytes('{"cells": [{"cell_type": "code", "source": "", "outputs": []}], "nbformat": 4}'), name: 'd.ipynb' }), { code: 'convert_unsupported' })
  const byType = await convertBounded({ bytes: bytes(notebookV3()), name: 'upload', contentType: 'application/x-ipynb+json' })
  t.equal(byType.format, 'ipynb', 'the content type names a notebook too')
  t.ok(isSinglePageDocumentName('analysis/Churn Model.ipynb'), 'a link to the file finds its page')
})
