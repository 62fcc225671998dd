/**
 * The web app in real headless Chromium against a real `brain serve --http`: sign in, search as
 * you type, open a page, follow a wikilink to its backlink, edit and save, a refused conflicting
 * save, and page content that carries script payloads running nothing. Screenshots of the screens
 * are written to dist/test-artifacts/ui/.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { packageRoot } from '../../src/util/package-root.js'
import { createPgDatabase } from '../helpers/engines.js'
import { makeToken, startServe } from '../http/helpers.js'

const ARTIFACTS = join(packageRoot(), 'dist', 'test-artifacts', 'ui')

function chromiumPath(): string {
  if (process.env.BRAIN_CHROMIUM) return process.env.BRAIN_CHROMIUM
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim()
}

const HOSTILE = [
  '# Alpha',
  '',
  'Alpha links to [[notes/beta|the beta note]] and talks about quokkas.',
  '',
  '<script>window.__pwned = "script"</script>',
  '<img src="x" onerror="window.__pwned = \'img\'">',
  '[a trap](javascript:window.__pwned=1) and [a site](https://example.org)',
].join('\n')

async function launch(t: Test): Promise<Browser> {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const child = browser.process()
  t.teardown(async () => {
    await browser.close().catch(() => undefined)
    // Through node's handle, which never signals a pid the browser no longer holds.
    if (child !== null && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return browser
}

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) as `${string}.png`, fullPage: true })
}

t.test('sign in, search, read, follow a link, edit, and nothing in a page runs', async (t) => {
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  const server = await startServe(created.url)
  t.teardown(() => server.stop('SIGKILL'))
  const token = await makeToken(created.url, 'browser', ['read', 'write', 'admin'])
  const put = async (slug: string, content: string) => {
    const response = await fetch(`${server.base}/api/put_page`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ slug, content, no_embed: true }),
    })
    t.equal(response.status, 200, `seeded ${slug}`)
  }
  await put('notes/alpha', HOSTILE)
  await put('notes/beta', '# Beta\n\nThe second note.\n')
  await put('notes/gamma', '# Gamma\n\n| who | seen |\n|---|---|\n| [[people/ada|Ada]] | [[Rottnest]] |\n\nWe counted wombats there. ^b15695\n')
  t.equal((await fetch(`${server.base}/api/list_pages`, { method: 'POST', body: '{}' })).status, 401, 'no API call without a token')

  const browser = await launch(t)
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(String(err)))
  page.on('dialog', (dialog) => void dialog.accept())
  page.on('console', (message) => t.comment(`console: ${message.text()}`))
  page.on('requestfailed', (request) => t.comment(`request failed: ${request.url()} ${request.failure()?.errorText}`))
  const response = await page.goto(`${server.base}/ui`)
  t.match(response?.headers()['content-security-policy'], /script-src 'self'/, 'a strict content security policy')
  await page.waitForSelector('#login')
  await shot(page, 'login')
  await page.type('#token', token)
  await page.click('#login button')
  await page.waitForSelector('.results a.result')
  await shot(page, 'home')

  await page.type('#search', 'quokkas')
  await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Search: quokkas'`)
  const hits = await page.$$eval('.results a.result', (links) => links.map((a) => a.textContent))
  t.same(hits, ['Alpha'], 'search as you type finds the page')
  await shot(page, 'search')
  await page.click('.results a.result')
  await page.waitForFunction(`document.querySelector('#title')?.textContent === 'Alpha'`)
  await shot(page, 'page')
  t.equal(await page.evaluate('typeof window.__pwned'), 'undefined', 'no payload ran')
  t.equal(await page.$$eval('main script, main img', (nodes) => nodes.length), 0, 'script and img tags stay text')
  t.same(await page.$$eval('main a', (links) => links.map((a) => a.getAttribute('href')).filter((href) => href?.startsWith('javascript'))), [], 'no javascript: link')
  t.ok(await page.$('main a[href="https://example.org"][rel~="noopener"]'), 'ordinary links work')

  await page.click('a.wikilink')
  await page.waitForFunction(`document.querySelector('#title')?.textContent === 'Beta'`)
  const backlinks = await page.$$eval('aside a', (links) => links.map((a) => a.textContent))
  t.ok(backlinks.includes('notes/alpha'), 'the backlink to the linking note is shown')

  await page.goto(`${server.base}/ui#/edit/notes%2Fbeta`)
  await page.waitForSelector('#editor')
  await page.evaluate(`(() => { const area = document.querySelector('#editor'); area.value = area.value.replace('The second note.', 'The second note, edited in a browser.') })()`)
  await shot(page, 'edit')
  await page.click('#save')
  await page.waitForFunction(`document.querySelector('#title')?.textContent === 'Beta' && document.querySelector('main').textContent.includes('edited in a browser')`)
  await page.goto(`${server.base}/ui#/history/notes%2Fbeta`)
  await page.waitForSelector('main ol li')
  t.equal(await page.$$eval('main ol li', (items) => items.length), 2, 'the edit made a version')
  await shot(page, 'history')

  await page.goto(`${server.base}/ui#/edit/notes%2Fbeta`)
  await page.waitForSelector('#editor')
  await put('notes/beta', '# Beta\n\nChanged elsewhere meanwhile.\n')
  await page.evaluate(`document.querySelector('#editor').value += '\\nMy late change.\\n'`)
  await page.click('#save')
  await page.waitForSelector('p.error[role="status"]')
  t.match(await page.$eval('p.error[role="status"]', (p) => p.textContent), /changed since you opened it/, 'a conflicting save is refused and said')
  const stored = await fetch(`${server.base}/api/get_page`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ slug: 'notes/beta' }) })
  t.match(((await stored.json()) as { compiled_truth: string }).compiled_truth, /Changed elsewhere meanwhile/, 'and the newer text is kept')
  await page.goto(`${server.base}/ui#/search/quokkas`)
  await page.waitForSelector('#filters select[name="mode"]')
  t.ok(await page.$eval('.snippet mark', (m) => m.textContent?.toLowerCase() === 'quokkas'), 'matches are highlighted')
  t.equal(
    await page.$eval('.snippet', (s) => s.textContent),
    'Alpha Alpha links to the beta note and talks about quokkas. <script>window.__pwned = "script"</script> <img src="x" onerror="window.__pwned = \'img\'"> [a trap](javascript:window.__pwned=1) and [a site](https://example.org)',
    'a snippet shows a wikilink as its text, and markup as text',
  )
  await page.goto(`${server.base}/ui#/search/wombats`)
  await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Search: wombats' && document.querySelector('.snippet') !== null`)
  t.equal(await page.$eval('.snippet', (s) => s.textContent), 'Gamma who seen Ada Rottnest We counted wombats there.', 'wikilinks, table pipes and block ids are gone from a snippet')
  t.same(await page.$$eval('.snippet mark', (marks) => marks.map((m) => m.textContent)), ['wombats'], 'the matched word is marked')
  await page.goto(`${server.base}/ui#/search/quokkas`)
  // The previous search's page is still up until this one renders: wait for this one's heading.
  await page.waitForFunction(`document.querySelector('h1')?.textContent === 'Search: quokkas' && document.querySelector('#filters select[name="mode"]') !== null`)
  await page.select('#filters select[name="mode"]', 'query')
  await page.waitForFunction(`document.querySelector('p[role="note"]') !== null && document.querySelector('.results a.result') !== null`)
  t.same(await page.$$eval('.results a.result', (links) => links.map((a) => a.textContent)), ['Alpha'], 'hybrid mode answers, keyword-only without embeddings, and says so')

  await page.goto(`${server.base}/ui#/tokens`)
  await page.waitForSelector('#token-name')
  await page.type('#token-name', 'made-in-browser')
  await page.click('#token-name ~ button[type="submit"]')
  await page.waitForSelector('#created-token pre.secret')
  const minted = await page.$eval('#created-token pre.secret', (p) => p.textContent ?? '')
  t.match(minted, /^brain_/, 'a new token is shown once')
  const withMinted = () => fetch(`${server.base}/api/list_pages`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${minted}` }, body: '{}' })
  t.equal((await withMinted()).status, 200, 'and works')
  await shot(page, 'tokens')
  await page.click('tr[data-token="made-in-browser"] button.revoke')
  await page.waitForFunction(`document.querySelector('tr[data-token="made-in-browser"]')?.textContent.includes('revoked')`)
  t.equal((await withMinted()).status, 401, 'revoked from the tokens screen')
  await page.goto(`${server.base}/ui#/requests`)
  await page.waitForSelector('#requests tbody tr')
  t.ok(
    (await page.$$eval('#requests tbody tr', (rows) => rows.map((r) => r.textContent ?? ''))).some((text) => text.includes('/api/put_page')),
    'the request log lists the API calls',
  )
  await shot(page, 'requests')
  t.same(errors, [], 'no script errors')
})

t.test('brain ui: the service serves the app on 127.0.0.1 and its one-time link signs the browser in', async (t) => {
  const { cliBrain } = await import('../helpers/cli.js')
  const brain = await cliBrain('pglite', { mode: 'service' })
  t.teardown(brain.cleanup)
  t.equal((await brain.run(['put', 'notes/local', '--no-embed'], { input: '# Local\n\nA note on this machine.\n' })).code, 0)
  const started = await brain.run(['ui', '--no-open', '--json'])
  t.equal(started.code, 0, started.stderr)
  const { url, sign_in_url: signIn } = started.json<{ url: string; sign_in_url: string }>()
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/ui$/, 'on the loopback address only')
  const base = url.replace(/\/ui$/, '')
  t.equal((await fetch(`${base}/api/list_pages`, { method: 'POST', body: '{}' })).status, 401, 'no session, no API')

  const browser = await launch(t)
  const page = await browser.newPage()
  await page.goto(signIn)
  await page.waitForSelector('.results a.result')
  t.same(await page.$$eval('.results a.result', (links) => links.map((a) => a.textContent)), ['Local'], 'signed in by the link, the app lists the brain')
  const cookies = await page.cookies()
  t.match(
    cookies.find((c) => c.name === 'brain_session'),
    { httpOnly: true, sameSite: 'Strict' },
    'an HttpOnly, SameSite=Strict session cookie',
  )
  await shot(page, 'local-home')
  const reused = await fetch(signIn, { redirect: 'manual' })
  t.equal(reused.status, 401, 'a sign-in link works once')
  const folder = join(brain.home, 'later')
  const submitted = await brain.run(['jobs', 'submit', 'import', '--data', JSON.stringify({ path: folder, noEmbed: true }), '--json'])
  const jobId = submitted.json<{ id: string }>().id
  const status = async () => (await brain.run(['jobs', 'get', jobId, '--json'])).json<{ status: string }>().status
  for (let i = 0; i < 600 && (await status()) !== 'dead'; i++) await new Promise((r) => setTimeout(r, 100))
  t.equal(await status(), 'dead', 'an import of a missing folder dies')
  mkdirSync(folder)
  await page.goto(`${base}/ui#/jobs/dead`)
  await page.waitForSelector(`tr[data-job="${jobId}"] button.retry`)
  await shot(page, 'jobs')
  // A job event replaces the job's row, which can detach a button between finding and clicking
  // it, so the button is found and clicked in one step inside the page.
  await page.$eval(`tr[data-job="${jobId}"] button.retry`, (button) => (button as unknown as { click(): void }).click())
  for (let i = 0; i < 600 && (await status()) !== 'completed'; i++) await new Promise((r) => setTimeout(r, 100))
  t.equal(await status(), 'completed', 'retried from the jobs screen, it completes once the folder exists')
  const again = await brain.run(['ui', '--no-open', '--json'])
  t.equal(again.json<{ url: string }>().url, url, 'a second `brain ui` reuses the running app with a new link')
  t.not(again.json<{ sign_in_url: string }>().sign_in_url, signIn)
})
