import t from 'tap'
import { cp, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ConfigError } from '../../../src/errors/index.js'
import { INGESTION_SOURCE_API_VERSION, type IngestionSource } from '../../../src/intake/ingestion/index.js'
import { discoverPluginDirs, linkBrainPackage, loadPlugin } from '../../../src/intake/ingestion/plugins.js'
import { cliBrain } from '../../helpers/cli.js'

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

async function pluginDir(manifest: Record<string, unknown>, entry = 'export default () => ({ id: "p", run: async () => undefined })\n'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'brain-plugin-'))
  await writeFile(join(dir, 'package.json'), '{"type": "module"}')
  await writeFile(join(dir, 'brain.plugin.json'), JSON.stringify(manifest))
  await writeFile(join(dir, 'index.js'), entry)
  return dir
}

t.test('a plugin built for another source API version fails loudly with an upgrade hint', async (t) => {
  const newer = await loadPlugin(await pluginDir({ name: 'from-the-future', api_version: INGESTION_SOURCE_API_VERSION + 1 })).then(
    () => null,
    (e: unknown) => e,
  )
  t.ok(newer instanceof ConfigError)
  t.match(newer, { code: 'plugin_api_version_mismatch', message: /from-the-future needs source API version 2; this brain provides version 1/, hint: /Upgrade brain/ })
  const older = await loadPlugin(await pluginDir({ name: 'old-one', api_version: 0 })).then(
    () => null,
    (e: unknown) => e,
  )
  t.match(older, { code: 'plugin_api_version_mismatch', hint: /Upgrade the plugin old-one/ })
  const noVersion = await loadPlugin(await pluginDir({ name: 'unversioned' })).then(
    () => null,
    (e: unknown) => e,
  )
  t.match(noVersion, { code: 'plugin_manifest_invalid', message: /api_version/ })
  const noFactory = await loadPlugin(await pluginDir({ name: 'empty', api_version: 1 }, 'export const x = 1\n')).then(
    () => null,
    (e: unknown) => e,
  )
  t.match(noFactory, { code: 'plugin_manifest_invalid', message: /default export or createSource/ })
})

t.test('brain ingest daemon refuses to start with an incompatible plugin', async (t) => {
  const brain = await cliBrain('pglite')
  t.teardown(() => brain.cleanup())
  const dir = await pluginDir({ name: 'from-the-future', api_version: 99 })
  const result = await brain.run(['ingest', 'daemon', '--no-watch', '--no-inbox', '--plugin', dir, '--json'])
  t.equal(result.code, 1)
  t.match(result.json().error, { class: 'ConfigError', code: 'plugin_api_version_mismatch', hint: /Upgrade brain/ })
})

t.test('plugins are discovered by their manifests', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-plugins-'))
  await mkdir(join(root, 'a'))
  await writeFile(join(root, 'a', 'brain.plugin.json'), '{}')
  await mkdir(join(root, 'not-a-plugin'))
  await mkdir(join(root, '.hidden'))
  await writeFile(join(root, '.hidden', 'brain.plugin.json'), '{}')
  t.same(await discoverPluginDirs(root), [join(root, 'a')])
  t.same(await discoverPluginDirs(join(root, 'missing')), [])
})

function feedServer(items: () => string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/rss+xml')
    res.end(`<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>${items().join('')}</channel></rss>`)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.xml` })))
}

const item = (id: number): string => `<item><title>Post ${id}</title><link>https://blog.test/${id}</link><guid>${id}</guid><description><![CDATA[<p>Body ${id} &amp; more</p>]]></description></item>`

t.test('the example feed source, imported by package name, passes the harness', async (t) => {
  const project = await mkdtemp(join(tmpdir(), 'brain-publisher-'))
  await cp(join(REPO_ROOT, 'examples', 'ingestion-source-feed'), join(project, 'feed'), { recursive: true })
  await mkdir(join(project, 'node_modules'))
  await symlink(REPO_ROOT, join(project, 'node_modules', 'brain'))
  await symlink(join(project, 'feed'), join(project, 'node_modules', 'brain-ingestion-source-feed'))
  const requireFromProject = createRequire(join(project, 'index.js'))
  const feed = (await import(pathToFileURL(requireFromProject.resolve('brain-ingestion-source-feed')).href)) as { createSource: (o: Record<string, unknown>) => IngestionSource; apiVersion: number }
  const { IngestionTestHarness } = (await import(pathToFileURL(requireFromProject.resolve('brain/ingestion/test-harness')).href)) as typeof import('../../../src/intake/ingestion/test-harness.js')
  t.equal(feed.apiVersion, INGESTION_SOURCE_API_VERSION, 'it reads the constant through brain/ingestion')
  const published = [1, 2]
  const { server, url } = await feedServer(() => published.map(item))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const harness = new IngestionTestHarness()
  const run = harness.run(feed.createSource({ url, interval_ms: 60_000 }))
  t.teardown(() => run.stop())
  await harness.expectEvent({ content_type: 'text/html', source_uri: 'https://blog.test/1', content: /<h1>Post 1<\/h1>/ })
  await harness.expectEvent({ source_uri: 'https://blog.test/2', metadata: { title: 'Post 2' } })
  published.push(3)
  await harness.advance(60_000)
  await harness.expectEvent({ source_uri: 'https://blog.test/3' })
  t.equal(harness.events.length, 3, 'items already seen are not emitted again')
  await t.rejects(harness.expectEvent({ source_uri: 'https://blog.test/4' }, { timeoutMs: 50 }), /no emitted event matched/)
  t.throws(() => harness.engine.getPage('x'), /refuses every access/, 'the harness engine proxy throws on any access')
})

t.test('a plugin installed under $BRAIN_HOME/plugins resolves brain/ingestion to the brain that loads it', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'brain-plugins-'))
  await cp(join(REPO_ROOT, 'examples', 'ingestion-source-feed'), join(root, 'feed'), { recursive: true })
  const unlinked = await mkdtemp(join(tmpdir(), 'brain-plugins-'))
  await cp(join(REPO_ROOT, 'examples', 'ingestion-source-feed'), join(unlinked, 'feed'), { recursive: true })
  await t.rejects(loadPlugin(join(unlinked, 'feed')), /Cannot find package 'brain'/, 'without the link, brain is not resolvable from a plugin folder')
  await linkBrainPackage(root)
  await linkBrainPackage(root)
  const loaded = await loadPlugin(join(root, 'feed'))
  t.equal(loaded.source.id, 'feed', 'the daemon loads it through its manifest')
  t.equal(loaded.manifest.options?.interval_ms, 900000)
})

t.test('the harness reports what a source threw before it was stopped', async (t) => {
  const { IngestionTestHarness } = await import('../../../src/intake/ingestion/test-harness.js')
  const harness = new IngestionTestHarness()
  const run = harness.run({ id: 'broken', run: async () => Promise.reject(new Error('cannot connect')) })
  await new Promise((r) => setTimeout(r, 10))
  t.match(run.failure, /cannot connect/)
  await t.rejects(run.stop(), /cannot connect/)
  const quiet = harness.run({ id: 'quiet', run: (ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))) })
  await quiet.stop()
  t.equal(quiet.failure, null, 'a rejection caused by stop() is not a failure')
  const invalid = await harness.context().emit({ content_type: 'text/plain', content: '', source_id: 'x' })
  t.match(invalid, { status: 'invalid', code: 'empty_body' }, 'the harness validates what a source emits')
})
