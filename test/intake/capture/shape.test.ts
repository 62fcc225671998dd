// test-runner: shares a process
import t from 'tap'
import { captureTitle, defaultCaptureSlug, isStructured, shapeCapture, MAX_CAPTURE_TITLE } from '../../../src/intake/capture/index.js'
import { parseMarkdownPage } from '../../../src/pages/index.js'

const now = new Date('2024-05-02T23:30:00Z')

t.test('default slug: inbox/<UTC date>-<hash8>, stable for the same content', async (t) => {
  const slug = defaultCaptureSlug('buy milk', now)
  t.match(slug, /^inbox\/2024-05-02-[0-9a-f]{8}$/)
  t.equal(defaultCaptureSlug('buy milk', now), slug)
  t.not(defaultCaptureSlug('buy bread', now), slug)
  t.match(defaultCaptureSlug('x', new Date('2024-05-02T23:59:59-05:00')), /^inbox\/2024-05-03-/, 'date is UTC')
})

t.test('prose is wrapped with front matter and a heading; title capped at 80', async (t) => {
  const long = 'word '.repeat(40).trim()
  const shaped = shapeCapture(`${long}\nsecond line`, { capturedVia: 'cli', now })
  t.equal(shaped.wrapped, true)
  t.ok(shaped.title.length <= MAX_CAPTURE_TITLE)
  const parsed = parseMarkdownPage(shaped.markdown, 'inbox/x')
  t.same(Object.keys(parsed.frontmatter).sort(), ['captured_at', 'captured_via', 'title', 'type'])
  t.equal(parsed.frontmatter.type, 'capture')
  t.equal(parsed.frontmatter.captured_at, now.toISOString())
  t.match(parsed.compiledTruth, new RegExp(`^# ${shaped.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
  t.equal(shapeCapture('a note', { capturedVia: 'cli', now, type: 'idea' }).markdown.includes('type: "idea"'), true)
})

t.test('content starting with a heading or front matter passes unchanged', async (t) => {
  t.ok(isStructured('# Title\nbody'))
  t.ok(isStructured('---\ntitle: x\n---\nbody'))
  t.notOk(isStructured('#hashtag is not a heading'))
  const text = '## Meeting\n\nnotes'
  t.equal(shapeCapture(text, { capturedVia: 'cli', now }).markdown, `${text}\n`)
  t.equal(captureTitle('   \n  first real line  \n'), 'first real line')
})
