// test-runner: shares a process
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { captureUrl, isPrivateAddress, webSlugForUrl } from '../../src/intake/capture/index.js'
import { findPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { ARTICLE_HTML } from './html-fixtures.js'
import { makePdf } from './pdf-fixtures.js'

interface Site {
  base: string
  host: string
  setNote(text: string): void
}

async function startSite(t: Test): Promise<Site> {
  const pdf = Buffer.from(await makePdf([{ lines: ['Paper page one.'] }, { lines: ['Paper page two.'] }], { title: 'A Paper' }))
  let note = 'first version of the note'
  let port = 0
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/'
    const send = (type: string, body: string | Buffer): void => {
      res.writeHead(200, { 'content-type': type })
      res.end(body)
    }
    if (path === '/posts/tides.html') return send('text/html; charset=utf-8', ARTICLE_HTML)
    if (path === '/paper') return send('application/pdf', pdf)
    if (path === '/note.txt') return send('text/plain', note)
    if (path === '/readme') return send('text/markdown', '# Readme\n\nhello from markdown\n')
    if (path === '/r1') return res.writeHead(302, { location: '/r2' }).end()
    if (path === '/r2') return res.writeHead(301, { location: '/posts/tides.html' }).end()
    if (path.startsWith('/loop')) return res.writeHead(302, { location: `/loop${path.length}` }).end()
    if (path === '/to-local') return res.writeHead(302, { location: `http://127.0.0.2:${port}/readme` }).end()
    if (path === '/slow') return // never answers
    if (path === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('x'.repeat(800))
      res.end('y'.repeat(800))
      return
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return { base: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, setNote: (text) => (note = text) }
}

t.test('address guard and slugs', async (t) => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fd12::1', '::ffff:127.0.0.1', '100.64.0.1']) t.ok(isPrivateAddress(a), a)
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) t.notOk(isPrivateAddress(a), a)
  t.equal(webSlugForUrl('https://Example.org/blog/My%20Post.html?x=1'), 'web/example.org/blog/my-post')
  t.equal(webSlugForUrl('https://example.org/'), 'web/example.org/index')
  // A run of dashes was trimmed from its end by trying every dash: the square of the run.
  t.equal(webSlugForUrl(`https://example.org/-a${'-'.repeat(1_000_000)}b-`), `web/example.org/a${'-'.repeat(79)}`)
})

engineTest(t, 'capture --url: converter by content type, redirects, guard on every hop, timeout, size cap, re-capture', async (t, { db }) => {
  const site = await startSite(t)
  const base = { embedder: null, writtenVia: 'capture', maxBytes: 100_000, timeoutMs: 5_000, allowPrivate: true }

  const html = await captureUrl(db, { ...base, url: `${site.base}/r1` })
  t.match(html, { slug: 'web/127.0.0.1/r1', status: 'created', format: 'html', title: 'Reading tide tables', url: `${site.base}/posts/tides.html` })
  const page = await findPage(db, 'default', 'web/127.0.0.1/r1')
  t.match(page!.frontmatter, { source_format: 'html', canonical_url: `${site.base}/posts/tides`, site_name: 'Coast Notes', fetched_at: /^\d{4}-/ })
  t.match(page!.compiledTruth, /## Columns/)

  t.match(await captureUrl(db, { ...base, url: `${site.base}/paper` }), { slug: 'web/127.0.0.1/paper', format: 'pdf', title: 'A Paper' })
  t.match(await captureUrl(db, { ...base, url: `${site.base}/readme` }), { format: 'text', title: 'Readme' })

  const note = await captureUrl(db, { ...base, url: `${site.base}/note.txt` })
  t.match(note, { slug: 'web/127.0.0.1/note.txt', status: 'created' })
  t.match(await captureUrl(db, { ...base, url: `${site.base}/note.txt` }), { slug: 'web/127.0.0.1/note.txt', status: 'skipped' }, 'the same bytes again are skipped')
  site.setNote('second version of the note')
  t.match(await captureUrl(db, { ...base, url: `${site.base}/note.txt` }), { slug: 'web/127.0.0.1/note.txt', status: 'updated' })
  t.match((await findPage(db, 'default', 'web/127.0.0.1/note.txt'))!.compiledTruth, /second version/)

  await t.rejects(captureUrl(db, { ...base, allowPrivate: false, url: `${site.base}/readme` }), { code: 'url_private_address', hint: /--allow-private/ })
  await t.rejects(
    captureUrl(db, { ...base, allowPrivate: false, allowHosts: [site.host], url: `${site.base}/to-local` }),
    { code: 'url_private_address', message: /127\.0\.0\.2/ },
    'a redirect to a private address is refused',
  )
  await t.rejects(captureUrl(db, { ...base, url: `${site.base}/loop` }), { code: 'url_too_many_redirects' })
  await t.rejects(captureUrl(db, { ...base, timeoutMs: 300, url: `${site.base}/slow` }), { code: 'url_timeout' })
  await t.rejects(captureUrl(db, { ...base, maxBytes: 1000, url: `${site.base}/big` }), { code: 'url_too_large' })
  await t.rejects(captureUrl(db, { ...base, url: 'file:///etc/passwd' }), { code: 'invalid_url' })
  t.equal((await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM pages`)).rows[0]!.n, 4, 'nothing refused was written')
})
