// test-runner: shares a process
import { mkdtempSync, readFileSync, writeFileSync, statSync, existsSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { createToken } from '../../src/auth/index.js'
import { loadConfig, type Config } from '../../src/config/index.js'
import { openBackupFile } from '../../src/backup/archive.js'
import { createBackup, listBackups, type BackupPlace } from '../../src/backup/backups.js'
import { openDatabase } from '../../src/db/open.js'
import { restoreBackup } from '../../src/backup/restore.js'
import type { Database } from '../../src/db/types.js'
import { dispatchTool } from '../../src/mcp/index.js'
import type { CallContext } from '../../src/operations/call-context.js'
import { putPage } from '../../src/pages/index.js'
import { memoryLogger } from '../../src/util/logger.js'
import { createPgDatabase, engineTest, type EngineName } from '../helpers/engines.js'

const tmp = (): string => mkdtempSync(join(tmpdir(), 'brain-backup-'))

function place(config: Config): BackupPlace {
  return { home: config.home, engine: config.engine, brainVersion: '0.38.0.0', env: process.env }
}

/** A brain to restore into: an empty embedded home, or a fresh migrated database on the cluster. */
async function target(t: Test, engine: EngineName): Promise<Config> {
  const home = tmp()
  if (engine === 'pglite') return loadConfig({ env: { BRAIN_HOME: home } })
  const created = await createPgDatabase({ migrated: true })
  t.teardown(created.drop)
  return loadConfig({ env: { BRAIN_HOME: home, BRAIN_DATABASE_URL: created.url } })
}

/** Where the source database is, for its backups (a PostgreSQL URL, or an in-memory PGLite). */
function sourcePlace(engine: EngineName, url: string | null): BackupPlace {
  const home = tmp()
  return place(loadConfig({ env: engine === 'postgres' ? { BRAIN_HOME: home, BRAIN_DATABASE_URL: url! } : { BRAIN_HOME: home } }))
}

async function withOpened<T>(config: Config, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(config.engine, { migrate: false })
  try {
    return await fn(db)
  } finally {
    await db.close()
  }
}

const TABLES = ['pages', 'page_versions', 'page_trash', 'links', 'tags', 'content_chunks', 'config', 'access_tokens', 'sources']

/** Every row of the tables a person's brain is made of, as text: equal brains have equal prints. */
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const print: Record<string, string> = {}
  for (const table of TABLES) {
    const { rows: exists } = await db.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [table])
    if (!exists[0]!.present) continue
    const { rows } = await db.query<{ n: number; h: string }>(`SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t`)
    print[table] = `${rows[0]!.n}:${rows[0]!.h}`
  }
  return print
}

function context(db: Database): CallContext {
  return { brain: async () => ({ db, config: loadConfig({ env: { BRAIN_HOME: tmp() } }) }), logger: memoryLogger(), dryRun: false, remote: false, scopes: null, remoteSlugPrefixes: [] }
}

const put = (db: Database, slug: string, content: string) => putPage({ db, logger: memoryLogger(), repoPath: null, remote: false }, { slug, content })

async function fillBrain(db: Database): Promise<void> {
  await put(db, 'notes/a', '# A\n\nfirst, links to [[notes/b]]\n')
  await put(db, 'notes/a', '# A\n\nsecond, links to [[notes/b]] and [[notes/c]]\n')
  await put(db, 'notes/b', '# B\n\n#project text\n')
  await put(db, 'notes/c', '# C\n\nto be deleted\n')
  await dispatchTool(context(db), 'add_tag', { slug: 'notes/b', tag: 'kept' })
  await dispatchTool(context(db), 'delete_page', { slug: 'notes/c' })
  await db.query(`UPDATE content_chunks SET embedding = array_fill(0.25::real, ARRAY[1536])::vector, model = 'test-model' WHERE id = (SELECT min(id) FROM content_chunks)`)
  if (db.capabilities.httpServer) await createToken(db, 'laptop', ['read', 'write'])
}

engineTest(t, 'a restore gives back the same pages, hashes, history, trash, links, tags, tokens and embeddings', async (t, { db, engine, url }) => {
  await fillBrain(db)
  const before = await fingerprint(db)
  // Rewriting, tagging and deleting each keep a version; any count above none will do.
  t.ok(Number(before.page_versions!.split(':')[0]) >= 1, 'page versions to carry')
  t.ok(before.page_trash!.startsWith('1:'), 'a trashed page to carry')
  const made = await createBackup(db, sourcePlace(engine, url))
  t.equal(made.pages, 2)
  t.equal(statSync(made.path).mode & 0o777, 0o600, 'readable by its owner only')
  t.match(openBackupFile(made.path).manifest, {
    format: 'brain-backup',
    engine,
    pages: 2,
    members: [{ name: engine === 'pglite' ? 'database.tar.gz' : 'database.pgdump' }, { name: 'migrations.json' }],
  })

  const into = await target(t, engine)
  const restored = await restoreBackup(made.path, place(into), { force: false })
  t.match(restored, { pages: 2, kept_aside: null })
  t.same(await withOpened(into, fingerprint), before, 'row for row the same brain')
})

engineTest(t, 'refusals change nothing: a brain with pages, a damaged file, a foreign file', async (t, { db, engine, url }) => {
  await fillBrain(db)
  const made = await createBackup(db, sourcePlace(engine, url))
  const into = await target(t, engine)
  await restoreBackup(made.path, place(into), { force: false })
  await withOpened(into, (d) => put(d, 'notes/new', '# New\n\nwritten after the restore\n'))
  const settled = await withOpened(into, fingerprint)

  await t.rejects(restoreBackup(made.path, place(into), { force: false }), { code: 'restore_target_not_empty' })
  const bytes = readFileSync(made.path)
  bytes[bytes.length - 4096] ^= 0xff
  const damaged = join(tmp(), 'damaged.brainbackup')
  writeFileSync(damaged, bytes)
  await t.rejects(restoreBackup(damaged, place(into), { force: true }), { code: 'backup_damaged' })
  const cut = join(tmp(), 'cut.brainbackup')
  writeFileSync(cut, readFileSync(made.path).subarray(0, 5000))
  await t.rejects(restoreBackup(cut, place(into), { force: true }), { code: 'backup_damaged' })
  const foreign = join(tmp(), 'notes.brainbackup')
  writeFileSync(foreign, 'just some notes\n')
  await t.rejects(restoreBackup(foreign, place(into), { force: true }), { code: 'backup_not_recognized' })
  const otherEngine = loadConfig({ env: engine === 'pglite' ? { BRAIN_HOME: tmp(), BRAIN_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } : { BRAIN_HOME: tmp() } })
  await t.rejects(restoreBackup(made.path, place(otherEngine), { force: true }), { code: 'backup_engine_mismatch' })
  t.same(await withOpened(into, fingerprint), settled, 'every refusal left the brain as it was')

  const forced = await restoreBackup(made.path, place(into), { force: true })
  t.equal(forced.previous_pages, 3)
  t.ok(forced.kept_aside, 'the replaced database is kept aside')
  if (engine === 'pglite') t.ok(existsSync(join(forced.kept_aside!, 'PG_VERSION')), 'as a whole data directory')
  else t.equal(openBackupFile(forced.kept_aside!).manifest.pages, 3, 'as a backup file of what it held')
  t.equal(await withOpened(into, async (d) => (await d.query<{ n: number }>('SELECT count(*)::int AS n FROM pages')).rows[0]!.n), 2)
})

engineTest(t, 'a backup taken during writes restores whole pages only', async (t, { db, engine, url }) => {
  let stop = false
  let written = 0
  const writer = (async () => {
    while (!stop) {
      await put(db, `load/p${written}`, `# P${written}\n\n${'whole page text '.repeat(40)}${written}\n`)
      written += 1
      // Writers reach a brain as requests, between which timers and I/O callbacks run. A loop of
      // embedded-engine calls alone settles only promises, and would starve the backup's own
      // compression callback for as long as it runs.
      await new Promise((resolve) => setImmediate(resolve))
    }
  })()
  while (written < 5) await new Promise((resolve) => setImmediate(resolve))
  const startedWith = written
  const made = await createBackup(db, sourcePlace(engine, url))
  const endedWith = written
  stop = true
  await writer
  t.ok(made.pages >= startedWith && made.pages <= endedWith + 1, `the backup holds ${made.pages} pages: the writes before it, none half done`)

  const into = await target(t, engine)
  await restoreBackup(made.path, place(into), { force: false })
  const pages = await withOpened(
    into,
    async (d) =>
      (
        await d.query<{ slug: string; compiled_truth: string; chunks: number }>(
          `SELECT slug, compiled_truth, (SELECT count(*)::int FROM content_chunks c WHERE c.page_id = p.id) AS chunks FROM pages p ORDER BY slug`,
        )
      ).rows,
  )
  t.equal(pages.length, made.pages)
  for (const page of pages) {
    const n = page.slug.replace('load/p', '')
    if (!page.compiled_truth.endsWith(`${n}`) || page.chunks === 0) t.fail(`${page.slug} is not whole`)
  }
})

t.test('backup list: newest first, foreign files left out', async (t) => {
  const dir = tmp()
  writeFileSync(join(dir, 'stray.brainbackup'), 'not a backup')
  t.same(listBackups(dir), [])
  t.same(readdirSync(dir), ['stray.brainbackup'])
})
