// test-runner: shares a process
import t from 'tap'
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FSWatcher } from 'node:fs'
import { ConfigError } from '../../../src/errors/index.js'
import { InboxSource, contentTypeForFile } from '../../../src/intake/ingestion/sources/inbox.js'
import { DirectoryWatcherSource, inotifyHint } from '../../../src/intake/ingestion/sources/watcher.js'
import { IngestionTestHarness } from '../../../src/intake/ingestion/test-harness.js'

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

t.test('watcher: a burst of changes is one event, 1 s after the last change', async (t) => {
  const dir = await tempDir('brain-watch-')
  const harness = new IngestionTestHarness()
  const run = harness.run(new DirectoryWatcherSource({ dir }))
  t.teardown(() => run.stop())
  await until(() => harness.clock.pendingSleeps === 0, 'watcher start')
  await new Promise((r) => setTimeout(r, 100))
  await writeFile(join(dir, 'Note One.md'), '# One\n\nfirst draft\n')
  await until(() => harness.clock.pendingSleeps > 0, 'the first change to be seen')
  await harness.advance(600)
  t.equal(harness.events.length, 0, 'nothing before the debounce ends')
  await writeFile(join(dir, 'Note One.md'), '# One\n\nsecond draft\n')
  await until(() => harness.clock.pendingSleeps > 1 || harness.events.length > 0, 'the second change to be seen')
  await harness.advance(999)
  t.equal(harness.events.length, 0, 'the second change restarted the debounce')
  await harness.advance(1)
  const event = await harness.expectEvent({ content_type: 'text/markdown', metadata: { slug: 'note-one' }, content: /second draft/ })
  t.equal(event.source_id, 'watcher')
  t.match(event.source_uri, /^file:\/\/.*Note%20One\.md$/)
  t.equal(harness.events.length, 1, 'one event for the burst')
})

t.test('watcher: pruned folders, non-markdown files and symlinks emit nothing', async (t) => {
  const dir = await tempDir('brain-watch-')
  await mkdir(join(dir, 'node_modules', 'pkg'), { recursive: true })
  await mkdir(join(dir, '.git'))
  await mkdir(join(dir, 'people'))
  const outside = await tempDir('brain-outside-')
  await writeFile(join(outside, 'secret.md'), '# secret\n')
  const harness = new IngestionTestHarness()
  const run = harness.run(new DirectoryWatcherSource({ dir }))
  t.teardown(() => run.stop())
  await new Promise((r) => setTimeout(r, 150))
  await writeFile(join(dir, 'node_modules', 'pkg', 'readme-like.md'), '# vendored\n')
  await writeFile(join(dir, '.git', 'notes.md'), '# git internals\n')
  await writeFile(join(dir, 'image.png'), 'not markdown')
  await symlink(join(outside, 'secret.md'), join(dir, 'link.md'))
  await writeFile(join(dir, 'people', 'ada.md'), '# Ada\n')
  await until(() => harness.clock.pendingSleeps >= 1, 'changes to be seen')
  await new Promise((r) => setTimeout(r, 150))
  await harness.advance(1000)
  await harness.expectEvent({ metadata: { slug: 'people/ada' } })
  harness.expectNoEvent({ content: /vendored|git internals|secret|not markdown/ })
  t.equal(harness.events.length, 1)
  t.ok(
    harness.warnings.some((w) => /link\.md is a symbolic link/.test(w)),
    'the symlink is reported',
  )
})

t.test('watcher: a document file is sent base64-encoded with the slug of its path', async (t) => {
  const dir = await tempDir('brain-watch-')
  await mkdir(join(dir, 'papers'))
  const harness = new IngestionTestHarness()
  const run = harness.run(new DirectoryWatcherSource({ dir }))
  t.teardown(() => run.stop())
  await until(() => harness.clock.pendingSleeps === 0, 'watcher start')
  await new Promise((r) => setTimeout(r, 150))
  const pdf = Buffer.from('%PDF-1.4\n%\xff binary', 'latin1')
  await writeFile(join(dir, 'papers', 'Deep Nets.pdf'), pdf)
  await until(() => harness.clock.pendingSleeps >= 1, 'the change to be seen')
  await harness.advance(1000)
  const event = await harness.expectEvent({ content_type: 'application/pdf', content_encoding: 'base64', metadata: { slug: 'papers/deep-nets', file_name: 'Deep Nets.pdf' } })
  t.same(Buffer.from(event.content, 'base64'), pdf)
})

t.test('watcher: inotify exhaustion fails with a paste-ready sysctl hint', async (t) => {
  const dir = await tempDir('brain-watch-')
  const limits = join(dir, 'max_user_watches')
  await writeFile(limits, '8192\n')
  const harness = new IngestionTestHarness()
  const enospc = (): FSWatcher => {
    throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC', syscall: 'watch' })
  }
  const source = new DirectoryWatcherSource({ dir, watch: enospc, maxWatchesFile: limits })
  const controller = new AbortController()
  const error = await source.run(harness.context(controller.signal)).then(
    () => null,
    (err: unknown) => err,
  )
  t.ok(error instanceof ConfigError)
  t.match(error, { code: 'inotify_watches_exhausted', hint: /^sudo sysctl fs\.inotify\.max_user_watches=524288 / })
  t.match(harness.warnings.join('\n'), /sudo sysctl fs\.inotify\.max_user_watches=524288/)
  t.match(await inotifyHint(join(dir, 'missing')), /max_user_watches=524288/)
  await writeFile(limits, '1000000\n')
  t.match(await inotifyHint(limits), /max_user_watches=2000000 /, 'the hint doubles a large current limit')
})

t.test('inbox: each file becomes one event and moves to .archived/<date>/ afterwards', async (t) => {
  const home = await tempDir('brain-inbox-')
  const inbox = join(home, 'inbox')
  await mkdir(inbox, { mode: 0o700 })
  await writeFile(join(inbox, 'idea.md'), '# Idea\n\nsomething\n')
  await writeFile(join(inbox, 'note.txt'), 'plain words')
  await writeFile(join(inbox, 'page.html'), '<p>hello</p>')
  await writeFile(join(inbox, 'data.json'), '{"a":1}')
  await writeFile(join(inbox, '.partial.md'), 'still being written')
  const harness = new IngestionTestHarness({ start: Date.UTC(2026, 4, 2, 12) })
  const run = harness.run(new InboxSource({ dir: inbox }))
  t.teardown(() => run.stop())
  await harness.expectEvent({ content_type: 'text/markdown', content: /something/, metadata: { file_name: 'idea.md' } })
  await harness.expectEvent({ content_type: 'text/plain', content: 'plain words' })
  await harness.expectEvent({ content_type: 'text/html' })
  await harness.expectEvent({ content_type: 'application/json', source_id: 'inbox', source_uri: /data\.json$/ })
  await until(async () => (await readdir(inbox)).filter((n) => !n.startsWith('.')).length === 0, 'the inbox to empty')
  t.same((await readdir(join(inbox, '.archived', '2026-05-02'))).sort(), ['data.json', 'idea.md', 'note.txt', 'page.html'])
  t.same((await readdir(inbox)).sort(), ['.archived', '.partial.md'], 'dot-files are left alone')
  t.equal(harness.events.length, 4)
  t.equal(contentTypeForFile('x.MARKDOWN'), 'text/markdown')
  t.equal(contentTypeForFile('x.pdf'), 'application/pdf')
})

t.test('inbox: a file whose job could not be submitted stays in the inbox', async (t) => {
  const inbox = join(await tempDir('brain-inbox-'), 'inbox')
  await mkdir(inbox)
  await writeFile(join(inbox, 'keep.md'), '# Keep\n')
  const harness = new IngestionTestHarness()
  const ctx = { ...harness.context(), emit: async () => Promise.reject(new Error('database down')) }
  await t.rejects(new InboxSource({ dir: inbox }).scan(ctx), /database down/)
  t.same(await readdir(inbox), ['keep.md'], 'not archived')
  const rateLimited = { ...harness.context(), emit: async () => ({ status: 'rate_limited' as const, retryAfterMs: 250 }) }
  t.equal(await new InboxSource({ dir: inbox }).scan(rateLimited), 250, 'a rate-limited scan waits as told')
  t.same(await readdir(inbox), ['keep.md'], 'still not archived')
})

t.test('inbox: symlinks and binary files are refused and stay; a world-writable inbox warns', async (t) => {
  const home = await tempDir('brain-inbox-')
  const inbox = join(home, 'inbox')
  await mkdir(inbox)
  await chmod(inbox, 0o777)
  await writeFile(join(home, 'target.md'), '# outside the inbox\n')
  await symlink(join(home, 'target.md'), join(inbox, 'link.md'))
  await writeFile(join(inbox, 'photo.png'), 'PNG-bytes')
  await writeFile(join(inbox, 'ok.md'), '# ok\n')
  const harness = new IngestionTestHarness()
  const run = harness.run(new InboxSource({ dir: inbox }))
  t.teardown(() => run.stop())
  await harness.expectEvent({ content: '# ok\n' })
  await until(async () => !(await readdir(inbox)).includes('ok.md'), 'ok.md to be archived')
  harness.expectNoEvent({ content: /outside the inbox|PNG/ })
  t.ok((await lstat(join(inbox, 'link.md'))).isSymbolicLink(), 'the link stays where it is')
  t.equal(await readFile(join(inbox, 'photo.png'), 'utf8'), 'PNG-bytes')
  const warnings = harness.warnings.join('\n')
  t.match(warnings, /world-writable.*chmod o-w/)
  t.match(warnings, /link\.md is a symbolic link/)
  t.match(warnings, /photo\.png is image\/png; no processor/)
})

t.test('inbox: a document file (PDF, chat export) is sent base64-encoded for its converter', async (t) => {
  const home = await tempDir('brain-inbox-')
  const inbox = join(home, 'inbox')
  await mkdir(inbox)
  const pdf = Buffer.from('%PDF-1.4\n%\xff\xfe binary body', 'latin1')
  await writeFile(join(inbox, 'paper.pdf'), pdf)
  const harness = new IngestionTestHarness()
  const run = harness.run(new InboxSource({ dir: inbox }))
  t.teardown(() => run.stop())
  const event = await harness.expectEvent({ content_type: 'application/pdf', content_encoding: 'base64', metadata: { file_name: 'paper.pdf' } })
  t.same(Buffer.from(event.content, 'base64'), pdf, 'the bytes arrive unchanged')
  await until(async () => !(await readdir(inbox)).includes('paper.pdf'), 'paper.pdf to be archived')
})

t.test("inbox: an app's JSON export is known by its first bytes, other JSON stays text", async (t) => {
  const home = await tempDir('brain-inbox-')
  const inbox = join(home, 'inbox')
  await mkdir(inbox)
  const roam = JSON.stringify([{ title: 'Project Tide', 'create-time': 1705312800000, children: [{ string: 'a block', uid: 'b1' }] }])
  await writeFile(join(inbox, 'a-graph.json'), roam)
  await writeFile(join(inbox, 'b-settings.json'), '{"theme": "dark"}')
  const harness = new IngestionTestHarness()
  const run = harness.run(new InboxSource({ dir: inbox }))
  t.teardown(() => run.stop())
  const exported = await harness.expectEvent({ content_encoding: 'base64', metadata: { file_name: 'a-graph.json' } })
  t.equal(Buffer.from(exported.content, 'base64').toString('utf8'), roam, 'sent whole to its converter')
  const data = await harness.expectEvent({ content_type: 'application/json', metadata: { file_name: 'b-settings.json' } })
  t.equal(data.content, '{"theme": "dark"}', 'other JSON is sent as text')
  t.equal(data.content_encoding, undefined)
})
