// test-runner: shares a process
import t from 'tap'
import { convertBounded, isSinglePageDocumentName } from '../../src/convert/index.js'
import { zip } from './docx-fixtures.js'
import { epub, epubParts } from './epub-fixtures.js'

t.test('an EPUB book: title and authors from its package, its chapters in reading order, headings below the title', async (t) => {
  const r = await convertBounded({ bytes: epub(), name: 'books/Gardens.epub' })
  t.equal(r.format, 'epub')
  t.same(r.counts, { chapters: 2 })
  const d = r.drafts[0]!
  t.equal(d.title, 'Gardens & Orchards')
  t.same(d.frontmatter, { type: 'book', source_format: 'epub', author: ['Ada Lovelace', 'Mary Somerville'], language: 'en' })
  t.equal(
    d.body,
    '# Gardens & Orchards\n\n## Soil\n\nCompost feeds the *soil*. See pruning and [a guide](https://example.org/compost).\n\n### Worms\n\nWorms help.\n\n## Pruning\n\nPrune apple trees in winter.\n',
    'links into the book and pictures leave their text; the navigation file, styles and scripts leave nothing',
  )
  t.ok(isSinglePageDocumentName('books/Gardens.epub'), 'a link to the file finds its page')
})

t.test('a book under DRM, a zip that is no book and a book without text are refused with codes', async (t) => {
  const drm = {
    ...epubParts(),
    'META-INF/encryption.xml': '<encryption><EncryptedData><CipherData><CipherReference URI="OEBPS/text/chapter2.xhtml"/></CipherData></EncryptedData></encryption>',
  }
  await t.rejects(convertBounded({ bytes: epub(drm), name: 'locked.epub' }), { code: 'convert_unsupported', message: /DRM/ })
  const fonts = { ...epubParts(), 'META-INF/encryption.xml': '<encryption><EncryptedData><CipherData><CipherReference URI="OEBPS/fonts/serif.otf"/></CipherData></EncryptedData></encryption>' }
  t.equal((await convertBounded({ bytes: epub(fonts), name: 'fonts.epub' })).drafts.length, 1, 'obfuscated fonts are no DRM')
  await t.rejects(convertBounded({ bytes: zip({ 'a.txt': 'hello' }), name: 'plain.epub' }), { code: 'convert_corrupt' })
  const empty = { ...epubParts(), 'OEBPS/content.opf': epubParts()['OEBPS/content.opf']!.replace(/<spine>[\s\S]*<\/spine>/, '<spine/>') }
  await t.rejects(convertBounded({ bytes: epub(empty), name: 'empty.epub' }), { code: 'convert_unsupported' })
  await t.rejects(convertBounded({ bytes: zip(epubParts(), 3_000_000_000), name: 'bomb.epub' }), { code: 'convert_archive_bomb' })
})
