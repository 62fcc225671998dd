// test-runner: shares a process
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { convertBounded, converterFor } from '../../src/convert/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { findPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

const bytes = (text: string) => new TextEncoder().encode(text)

/** As Chrome writes it (Firefox adds TAGS, Pinboard descriptions under <DD>). */
const exported = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://example.org/tides" ADD_DATE="1705312800" TAGS="ocean,moon">Tides &amp; the Moon</A>
        <DD>Why the bulge runs ahead.
        <DT><H3 ADD_DATE="1700000000">Recipes</H3>
        <DL><p>
            <DT><A HREF="https://example.org/bread_(sourdough)" ADD_DATE="1705312800">[Best] sourdough</A>
        </DL><p>
        <DT><A HREF="javascript:alert(document.cookie)">Save to reader</A>
        <DT><A HREF="https://example.org/harbour">Harbour times</A>
    </DL><p>
    <DT><A HREF="https://example.org/loose">Loose one</A>
</DL><p>
`

t.test('a bookmark file: folders as headings, each bookmark a link with its day, tags and description', async (t) => {
  t.equal(converterFor('exports/bookmarks_11_27_26.html', undefined, bytes(exported)), 'bookmarks')
  t.equal(converterFor('exports/bookmarks_11_27_26.html'), 'html', 'by name alone it is a web page')
  t.equal(converterFor('site/page.html', undefined, bytes('<!DOCTYPE html><html><body>x</body></html>')), 'html')
  const r = await convertBounded({ bytes: bytes(`\ufeff${exported}`), name: 'exports/bookmarks_11_27_26.html' })
  t.equal(r.format, 'bookmarks')
  t.same(r.counts, { bookmarks: 5, bookmark_folders: 2 })
  const [page] = r.drafts
  t.same([page?.title, page?.frontmatter], ['bookmarks_11_27_26', { type: 'bookmarks', bookmarks: 5 }])
  t.equal(
    page?.body,
    [
      '# bookmarks_11_27_26',
      '- [Loose one](https://example.org/loose)',
      '## Bookmarks bar',
      ['- [Tides & the Moon](https://example.org/tides) · 2024-01-15 · tags: ocean, moon', '  Why the bulge runs ahead.', '- Save to reader', '- [Harbour times](https://example.org/harbour)'].join(
        '\n',
      ),
      '### Recipes',
      '- [\\[Best\\] sourdough](<https://example.org/bread_(sourdough)>) · 2024-01-15',
    ].join('\n\n') + '\n',
    'a folded folder keeps its own bookmarks; a bookmarklet keeps only its name',
  )
})

t.test('a bookmark file with nothing in it, or built to make the reader rescan, stays bounded', async (t) => {
  await t.rejects(convertBounded({ bytes: bytes('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n</DL><p>\n'), name: 'empty.html' }), { code: 'convert_unsupported' })
  const unclosed = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${'<DT><A HREF="https://example.org/">x '.repeat(20_000)}`
  const r = await convertBounded({ bytes: bytes(unclosed), name: 'unclosed.html' })
  t.equal(r.counts.bookmarks, 20_000)
  const opened = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n${'<a x="'.repeat(50_000)}${'<A '.repeat(100_000)}`
  await t.rejects(convertBounded({ bytes: bytes(opened), name: 'opened.html' }), { code: 'convert_unsupported' }, 'tags never closed are read once each')
  const angled = await convertBounded({ bytes: bytes(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DT><A HREF="https://example.org/">${'<'.repeat(60_000)}x</A>`), name: 'angled.html' })
  t.equal(angled.counts.bookmarks, 1)
  const deep = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n${'<DT><H3>f</H3><DL><p>'.repeat(5_000)}<DT><A HREF="https://example.org/deep">Deep</A>`
  const nested = await convertBounded({ bytes: bytes(deep), name: 'deep.html' })
  t.equal(nested.counts.bookmarks, 1)
  t.match(nested.drafts[0]?.body, /###### f\n\n- \[Deep\]\(https:\/\/example\.org\/deep\)\n$/, 'folders past the depth limit keep their bookmarks in the last one')
})

engineTest(t, 'a folder holding a bookmark export: one page of bookmarks, not a web page', async (t, { db }) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-bookmarks-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  await writeFile(join(root, 'Bookmarks.html'), exported)
  const result = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.same(result.failed, [])
  t.equal(result.formats.bookmarks?.pages, 1)
  const page = await findPage(db, 'default', 'bookmarks')
  t.same([page?.title, page?.type, page?.frontmatter.source_format], ['Bookmarks', 'bookmarks', 'bookmarks'])
  t.match(page?.compiledTruth, /## Bookmarks bar\n\n- \[Tides & the Moon\]/)
})
