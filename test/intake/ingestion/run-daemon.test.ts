// test-runner: shares a process
import t from 'tap'
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runIngestDaemon } from '../../../src/intake/ingestion/run-daemon.js'
import type { Database } from '../../../src/db/types.js'
import { engineTest } from '../../helpers/engines.js'
import { testConfig, testLogger } from '../../queue/helpers.js'

async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function pageOf(db: Database, slug: string): Promise<{ compiled_truth: string; source_kind: string } | undefined> {
  const { rows } = await db.query<{ compiled_truth: string; source_kind: string }>('SELECT compiled_truth, source_kind FROM pages WHERE slug = $1', [slug])
  return rows[0]
}

engineTest(t, 'the daemon turns watched files and inbox drops into pages and reports health', async (t, { db }) => {
  const home = await mkdtemp(join(tmpdir(), 'brain-daemon-'))
  const brainDir = join(home, 'notes')
  await mkdir(join(brainDir, 'people'), { recursive: true })
  const config = testConfig({ BRAIN_HOME: home })
  const controller = new AbortController()
  const healthFile = join(home, 'ingest', 'health.json')
  let ready: string[] = []
  const done = runIngestDaemon({
    db,
    config,
    logger: testLogger(),
    watchDir: brainDir,
    inboxDir: join(home, 'inbox'),
    pluginDirs: [],
    runWorker: true,
    healthFile,
    signal: controller.signal,
    onReady: (sources) => (ready = sources),
  })
  t.teardown(() => controller.abort())
  await until(async () => (ready.length > 0 ? true : undefined), 'the daemon to start')
  t.same(ready, ['watcher', 'inbox'])
  await new Promise((r) => setTimeout(r, 200))
  await writeFile(join(brainDir, 'people', 'Grace Hopper.md'), '# Grace Hopper\n\nWrote the first compiler.\n')
  const watched = await until(() => pageOf(db, 'people/grace-hopper'), 'the watched file to become a page')
  t.match(watched, { compiled_truth: /first compiler/, source_kind: 'watcher' })
  await writeFile(join(home, 'inbox', 'todo.txt'), 'Renew the passport')
  const { rows } = await until(async () => {
    const found = await db.query<{ slug: string; compiled_truth: string }>("SELECT slug, compiled_truth FROM pages WHERE source_kind = 'inbox'")
    return found.rows.length > 0 ? found : undefined
  }, 'the inbox file to become a page')
  t.match(rows[0], { slug: /^inbox\/\d{4}-\d{2}-\d{2}-[0-9a-f]{6}$/, compiled_truth: /Renew the passport/ })
  await until(async () => ((await readdir(join(home, 'inbox'))).includes('todo.txt') ? undefined : true), 'the file to be archived')
  controller.abort()
  await done
  const health = JSON.parse(await readFile(healthFile, 'utf8')) as { sources: Array<{ id: string; state: string; dispatched: number }>; ingest_capture_jobs: { waiting: number } }
  t.match(health.sources, [
    { id: 'watcher', state: 'stopped', dispatched: 1 },
    { id: 'inbox', state: 'stopped', dispatched: 1 },
  ])
  t.equal(health.ingest_capture_jobs.waiting, 0)
})
