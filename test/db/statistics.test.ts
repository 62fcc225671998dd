// test-runner: shares a process
import t from 'tap'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { refreshPlannerStatistics } from '../../src/db/index.js'
import type { Database } from '../../src/db/types.js'
import { importFolder } from '../../src/intake/import/index.js'
import { engineTest } from '../helpers/engines.js'

async function analyzed(db: Database, table: string): Promise<{ reltuples: number; columns: number }> {
  const { rows } = await db.query<{ reltuples: number; columns: number }>(
    `SELECT c.reltuples::float8 AS reltuples, (SELECT count(*)::int FROM pg_statistic s WHERE s.starelid = c.oid) AS columns
     FROM pg_class c WHERE c.oid = $1::regclass`,
    [table],
  )
  return rows[0]!
}

async function insertChunks(db: Database, pageId: number, from: number, count: number): Promise<void> {
  await db.query(
    `INSERT INTO content_chunks (page_id, chunk_index, chunk_text, chunk_source)
     SELECT $1, n, repeat('lorem ipsum dolor ', 20) || n, 'compiled_truth' FROM generate_series($2::int, $3::int) n`,
    [pageId, from, from + count - 1],
  )
}

engineTest(t, 'tables that grew are analyzed where the engine does not analyze them itself', async (t, { db, engine }) => {
  const page = await db.query<{ id: number }>(`INSERT INTO pages (slug, content_hash) VALUES ('notes/big', 'h') RETURNING id`)
  const pageId = page.rows[0]!.id
  await insertChunks(db, pageId, 0, 500)
  if (engine === 'postgres') {
    t.same(await refreshPlannerStatistics(db), [], 'the server engine leaves it to autovacuum')
    return
  }
  t.equal((await analyzed(db, 'content_chunks')).columns, 0, 'nothing analyzed yet')
  const first = await refreshPlannerStatistics(db)
  t.ok(first.includes('public.content_chunks'), `analyzed: ${first.join(', ')}`)
  const after = await analyzed(db, 'content_chunks')
  t.equal(after.reltuples, 500, 'the row count is known')
  t.ok(after.columns > 0, 'column statistics exist')

  t.same(await refreshPlannerStatistics(db), [], 'nothing grew: nothing to do')
  await insertChunks(db, pageId, 500, 20)
  t.same(await refreshPlannerStatistics(db), [], 'a small growth waits')
  await insertChunks(db, pageId, 520, 600)
  t.ok((await refreshPlannerStatistics(db)).includes('public.content_chunks'), 'doubling the table analyzes it again')
  t.equal((await analyzed(db, 'content_chunks')).reltuples, 1120)
})

engineTest(t, 'an import leaves the brain with planner statistics, on both engines (autovacuum may not have run yet)', async (t, { db }) => {
  const root = mkdtempSync(join(tmpdir(), 'brain-stats-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'notes'))
  for (let i = 0; i < 40; i++) writeFileSync(join(root, 'notes', `n${i}.md`), `# Note ${i}\n\n${'Words about compaction and indexes. '.repeat(40)}\n`)
  const result = await importFolder(db, root, { strategy: 'markdown', sourceId: 'default', embedder: null })
  t.equal(result.created, 40)
  const stats = await analyzed(db, 'content_chunks')
  t.ok(stats.reltuples >= 40, `content_chunks counted ${stats.reltuples} rows`)
  t.ok((await analyzed(db, 'pages')).columns > 0, 'pages analyzed')
})

engineTest(t, 'an import of a mailbox alone leaves the brain with planner statistics too, on both engines', async (t, { db }) => {
  const root = mkdtempSync(join(tmpdir(), 'brain-stats-mail-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const messages = Array.from(
    { length: 30 },
    (_, i) =>
      `From s${i}@example.org Mon May  6 09:00:00 2024\nFrom: Sender ${i} <s${i}@example.org>\nSubject: Compaction notes ${i}\nMessage-ID: <m${i}@example.org>\nDate: Mon, 6 May 2024 09:${String(i).padStart(2, '0')}:00 +0000\n\n${'Words about compaction and indexes. '.repeat(30)}\n`,
  )
  writeFileSync(join(root, 'all.mbox'), messages.join('\n'))
  const result = await importFolder(db, root, { strategy: 'auto', sourceId: 'default', embedder: null })
  t.ok(result.created >= 30, `${result.created} pages written`)
  const stats = await analyzed(db, 'content_chunks')
  t.ok(stats.reltuples >= 30, `content_chunks counted ${stats.reltuples} rows`)
  t.ok((await analyzed(db, 'pages')).columns > 0, 'pages analyzed')
})
