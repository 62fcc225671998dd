// test-runner: shares a process
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { openPostgres } from '../../src/db/pg-driver.js'
import type { Database } from '../../src/db/index.js'
import { getLinks } from '../../src/links/index.js'
import { importFolder } from '../../src/intake/import/index.js'
import { createPgDatabase, openTestDatabase } from '../helpers/engines.js'

// Same length, and the two orders disagree: byte order puts `é` after every unaccented letter,
// a language collation puts it beside `e`, so en-US puts `éb` before `fa`.
const FILES: Record<string, string> = {
  'éb/Tie.md': '# Accented tie',
  'fa/Tie.md': '# Plain tie',
  'note.md': 'See [[Tie]].',
}

async function tieTarget(t: Test, db: Database): Promise<string | null> {
  const root = await mkdtemp(join(tmpdir(), 'brain-ties-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  for (const [path, content] of Object.entries(FILES)) {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), `${content}\n`)
  }
  const imported = await importFolder(db, root, { sourceId: 'default', embedder: null, strategy: 'auto' })
  t.equal(imported.failed.length, 0)
  const links = await getLinks(db, 'note')
  return links[0]?.toSlug ?? null
}

t.test('a tie in path order is byte order on PGLite', async (t) => {
  const ctx = await openTestDatabase('pglite')
  t.teardown(ctx.cleanup)
  t.equal(await tieTarget(t, ctx.db), 'fa/tie')
})

t.test('and the same on PostgreSQL whose collation is en-US', async (t) => {
  const created = await createPgDatabase({ migrated: true, icuLocale: 'en-US' })
  const db = await openPostgres({ url: created.url, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(async () => {
    await db.close()
    await created.drop()
  })
  const { rows } = await db.query<{ lang: boolean }>(`SELECT 'éb/tie' < 'fa/tie' AS lang`)
  t.ok(rows[0]!.lang, 'the database orders names by language, not by byte')
  t.equal(await tieTarget(t, db), 'fa/tie')

  // A link a language collation resolved before the fix, as a brain made earlier holds it.
  await db.query(`UPDATE links SET to_page_id = (SELECT id FROM pages WHERE slug = 'éb/tie') WHERE from_page_id = (SELECT id FROM pages WHERE slug = 'note')`)
  t.equal((await getLinks(db, 'note'))[0]?.toSlug, 'éb/tie')
  await db.exec(await readFile(fileURLToPath(new URL('../../../migrations/0570_link_ties_in_byte_order.sql', import.meta.url)), 'utf8'))
  t.equal((await getLinks(db, 'note'))[0]?.toSlug, 'fa/tie', 'the migration resolves it again in byte order')
})
