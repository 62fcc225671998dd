import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { checkForUpdate, compareVersions, parseVersion, upgradeKind } from '../../../src/releases/update/index.js'
import { runBrain } from '../../helpers/cli.js'

interface Envelope {
  error: { class: string; code: string; hint: string; message: string }
}

/** A fake releases feed on 127.0.0.1 answering every request with the current `reply`. */
async function fakeFeed(t: Test): Promise<{ url: string; reply: (status: number, body: string) => void; requests: string[] }> {
  let status = 200
  let body = '[]'
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers['user-agent'] ?? ''}`)
    if (status === 0) return // never answer: a hanging feed
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/repos/brain/releases`, reply: (s, b) => ((status = s), (body = b)), requests }
}

const release = (tag: string, notes: string, extra: Record<string, unknown> = {}) => ({
  tag_name: tag,
  name: `brain ${tag}`,
  body: notes,
  html_url: `https://example.test/${tag}`,
  published_at: '2026-11-01T00:00:00Z',
  draft: false,
  prerelease: false,
  ...extra,
})

const run = (feed: string) => runBrain(['check-update', '--json'], { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-upd-')), BRAIN_UPDATE_FEED_URL: feed })

t.test('four-part versions compare part by part; patch covers the last two parts', async (t) => {
  t.same(parseVersion('v0.38.0.0'), [0, 38, 0, 0])
  t.equal(parseVersion('0.38.0'), null)
  t.equal(parseVersion('nightly-2026'), null)
  t.ok(compareVersions([0, 38, 10, 0], [0, 38, 9, 5]) > 0, 'numeric, not lexical')
  t.equal(upgradeKind([0, 38, 0, 0], [1, 0, 0, 0]), 'major')
  t.equal(upgradeKind([0, 38, 0, 0], [0, 39, 0, 0]), 'minor')
  t.equal(upgradeKind([0, 38, 0, 0], [0, 38, 1, 0]), 'patch')
  t.equal(upgradeKind([0, 38, 0, 0], [0, 38, 0, 7]), 'patch')
  t.equal(upgradeKind([0, 38, 0, 0], [0, 38, 0, 0]), 'none')
  t.equal(upgradeKind([0, 38, 0, 0], [0, 37, 9, 9]), 'none')
})

t.test('a newer minor release is reported with the changelog of every release in between', async (t) => {
  const feed = await fakeFeed(t)
  feed.reply(
    200,
    JSON.stringify([
      release('v0.40.0.0', 'Draft notes', { draft: true }),
      release('v0.39.1.0', 'Fix the watcher.'),
      release('v0.39.0.0', 'Add the watcher.'),
      release('v0.39.5.0-rc1', 'not a version'),
      release('v0.41.0.0', 'Pre-release', { prerelease: true }),
      release('v0.38.0.0', 'This release.'),
      release('v0.37.0.0', 'Older.'),
    ]),
  )
  const result = await run(feed.url)
  t.equal(result.code, 0, result.stderr)
  t.match(result.json(), { status: 'update_available', current: '0.38.0.0', latest: '0.39.1.0', kind: 'minor', feed_url: feed.url })
  t.same(
    result.json<{ changelog: Array<{ version: string; notes: string }> }>().changelog.map((c) => [c.version, c.notes]),
    [
      ['0.39.1.0', 'Fix the watcher.'],
      ['0.39.0.0', 'Add the watcher.'],
    ],
  )
  t.match(feed.requests[0], /^GET \/repos\/brain\/releases brain-check-update$/)
  const human = await runBrain(['check-update', '--no-json'], { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-upd-')), BRAIN_UPDATE_FEED_URL: feed.url })
  t.match(human.stdout, /^brain 0\.39\.1\.0 is available \(a minor release; you have 0\.38\.0\.0\)\.\n\n## 0\.39\.1\.0 \(2026-11-01\)\nFix the watcher\./)
})

t.test('a major release is reported; a patch-only one is skipped; nothing newer is up to date', async (t) => {
  const feed = await fakeFeed(t)
  feed.reply(200, JSON.stringify([release('1.0.0.0', 'One.'), release('0.38.0.0', 'This.')]))
  t.match((await run(feed.url)).json(), { status: 'update_available', latest: '1.0.0.0', kind: 'major' })
  feed.reply(200, JSON.stringify([release('v0.38.2.0', 'Patch.'), release('v0.38.0.1', 'Micro.')]))
  const patch = await run(feed.url)
  t.equal(patch.code, 0)
  t.match(patch.json(), { status: 'up_to_date', latest: '0.38.2.0', kind: 'patch', skipped_patch: '0.38.2.0', changelog: [], message: /patch release 0\.38\.2\.0 skipped/ })
  feed.reply(200, JSON.stringify([release('v0.38.0.0', 'This.')]))
  t.match((await run(feed.url)).json(), { status: 'up_to_date', kind: 'none', skipped_patch: null })
  feed.reply(200, '[]')
  t.match((await run(feed.url)).json(), { status: 'up_to_date', latest: null })
})

t.test('offline says so clearly and exits 0', async (t) => {
  const feed = await fakeFeed(t)
  const closedPort = await new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo
      s.close(() => resolve(port))
    })
  })
  const refused = await run(`http://127.0.0.1:${closedPort}/releases`)
  t.equal(refused.code, 0)
  t.match(refused.json(), { status: 'offline', latest: null, message: /Could not reach the releases feed .*offline/ })
  const human = await runBrain(['check-update', '--no-json'], { BRAIN_HOME: mkdtempSync(join(tmpdir(), 'brain-upd-')), BRAIN_UPDATE_FEED_URL: `http://127.0.0.1:${closedPort}/` })
  t.equal(human.code, 0)
  t.match(human.stdout, /you appear to be offline/)
  const unresolvable = await run('http://brain-update-feed.invalid/releases')
  t.match(unresolvable.json(), { status: 'offline' }, 'a name that does not resolve is offline too')
  feed.reply(0, '')
  const hanging = await checkForUpdate('0.38.0.0', feed.url, { timeoutMs: 300 })
  t.equal(hanging.status, 'offline', 'a feed that never answers times out as offline')
})

t.test('a feed that errors or is not a release list fails with a typed error', async (t) => {
  const feed = await fakeFeed(t)
  feed.reply(500, '{"message":"boom"}')
  const http = await run(feed.url)
  t.equal(http.code, 1)
  t.match(http.json<Envelope>().error, { class: 'UpdateFeedError', code: 'update_feed_http_error', message: /HTTP 500/ })
  feed.reply(403, '{}')
  t.match((await run(feed.url)).json<Envelope>().error, { code: 'update_feed_http_error', hint: /rate-limiting/ })
  feed.reply(200, '{"not":"a list"}')
  t.match((await run(feed.url)).json<Envelope>().error, { code: 'update_feed_invalid' })
  feed.reply(200, '<html>')
  t.match((await run(feed.url)).json<Envelope>().error, { code: 'update_feed_invalid', message: /did not return JSON/ })
  const badUrl = await run('not a url')
  t.match(badUrl.json<Envelope>().error, { class: 'UsageError', code: 'invalid_update_feed_url' })
  t.match((await run('file:///etc/passwd')).json<Envelope>().error, { code: 'invalid_update_feed_url' })
})
