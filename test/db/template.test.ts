// test-runner: shares a process
import t from 'tap'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../src/db/migrate.js'
import { openDatabase } from '../../src/db/open.js'
import { openPglite } from '../../src/db/pglite-driver.js'
import { buildEmptyTemplate, emptyTemplateDirectory, readEmptyTemplate } from '../../src/db/template.js'
import { trimArchiveWal } from '../../src/db/template-wal.js'
import type { SqlExecutor } from '../../src/db/types.js'

/** Everything a schema is made of, as text, in a stable order. */
async function schemaOf(db: SqlExecutor): Promise<Record<string, string[]>> {
  const list = async (sql: string): Promise<string[]> => (await db.query<{ v: string }>(sql)).rows.map((r) => r.v)
  return {
    columns: await list(
      `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS v FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`,
    ),
    indexes: await list(`SELECT indexdef AS v FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
    constraints: await list(`SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS v FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1`),
    functions: await list(`SELECT proname || ' ' || md5(prosrc) AS v FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`),
    triggers: await list(`SELECT pg_get_triggerdef(oid) AS v FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`),
    views: await list(`SELECT viewname || ' ' || md5(definition) AS v FROM pg_views WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`),
    extensions: await list(`SELECT extname || ' ' || extversion AS v FROM pg_extension ORDER BY 1`),
    ledger: await list(`SELECT version || ' ' || name || ' ' || applied AS v FROM brain_migrations ORDER BY version`),
  }
}

t.test('a brain started from the snapshot has the schema of one made from nothing', async (t) => {
  const template = readEmptyTemplate() ?? ((await buildEmptyTemplate()) && readEmptyTemplate())
  t.ok(template, 'the snapshot exists for the migrations on disk')
  t.ok(emptyTemplateDirectory(), 'and so does its data directory, which a new on-disk brain copies')

  const scratch = await openPglite({ dataDir: 'memory', memory: true })
  t.teardown(() => scratch.close())
  await migrate(scratch)

  const home = mkdtempSync(join(tmpdir(), 'brain-template-'))
  // On disk: the new brain is a copy of the snapshot's data directory.
  const started = await openDatabase({ kind: 'pglite', dataDir: join(home, 'db'), url: null, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(() => started.close())

  const [a, b] = [await schemaOf(scratch), await schemaOf(started)]
  for (const part of Object.keys(a)) t.same(b[part], a[part], `${part} are identical`)
  t.ok(a.ledger!.length > 20 && a.indexes!.length > 20, 'the comparison saw a whole schema')
  const databases = await started.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1')
  t.same(
    databases.rows.map((r) => r.datname),
    ['postgres'],
    'the copy holds only the database a brain opens',
  )
})

t.test('the snapshot keeps only the log it needs, and a brain from it writes on past it', async (t) => {
  const template = readEmptyTemplate() ?? ((await buildEmptyTemplate()) && readEmptyTemplate())
  if (template === null) throw new Error('no snapshot')
  // One WAL segment alone is 16 MiB; the schema itself is far less.
  t.ok(template.size < 16 * 1024 * 1024, `the unpacked snapshot is ${template.size} bytes, less than one whole WAL segment`)

  const first = await openPglite({ dataDir: 'memory', memory: true, template })
  await first.query('CREATE TABLE kept (n int, t text)')
  await first.query(`INSERT INTO kept SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g`)
  // Past the end of the segment the snapshot cut short, into one the server makes itself.
  await first.query('SELECT pg_switch_wal()')
  await first.query(`INSERT INTO kept SELECT g, repeat('y', 200) FROM generate_series(2001, 3000) g`)
  await first.query('CHECKPOINT')
  const dump = await first.dumpDataDir!()
  await first.close()

  const again = await openPglite({ dataDir: 'memory', memory: true, template: dump })
  t.teardown(() => again.close())
  const { rows } = await again.query<{ n: number; y: number }>(`SELECT count(*)::int AS n, count(*) FILTER (WHERE t LIKE 'y%')::int AS y FROM kept`)
  t.same(rows[0], { n: 3000, y: 1000 }, 'every row written before and after the switch is read back from a new start')
})

t.test('an archive the trim cannot read, or without the segment in use, is left as it is', (t) => {
  const garbage = new Uint8Array([1, 2, 3])
  t.equal(trimArchiveWal(garbage, '000000010000000000000002'), garbage, 'not a tar archive')
  const empty = new Uint8Array(1024)
  t.equal(trimArchiveWal(empty, '000000010000000000000002'), empty, 'no segment named as in use: nothing is dropped')
  t.end()
})
