import t from 'tap'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../src/db/migrate.js'
import { openDatabase } from '../../src/db/open.js'
import { openPglite } from '../../src/db/pglite-driver.js'
import { buildEmptyTemplate, emptyTemplateDirectory, readEmptyTemplate } from '../../src/db/template.js'
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
