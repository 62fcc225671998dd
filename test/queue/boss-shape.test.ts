// test-runner: shares a process
/**
 * The shape of pg-boss's tables that brain's statements (src/queue/boss-sql.ts) are written
 * against, on both engines: as migration 0100 installed it, and as the installed pg-boss package
 * would build it today. A pg-boss upgrade that renames, drops or retypes a column the statements
 * use, adds one to the rows the archive statement copies, or reorders the job states fails here.
 */
import { createRequire } from 'node:module'
import t, { type Test } from 'tap'
import type { SqlExecutor } from '../../src/db/types.js'
import { PG_BOSS_JOB_STATES, PG_BOSS_TABLES, QUEUE_SCHEMA } from '../../src/queue/boss-sql.js'
import { engineTest } from '../helpers/engines.js'

type Shape = Record<string, Record<string, string>>

/** Tables whose every column the statements name (the archive statement copies whole job rows). */
const WHOLE_ROWS = new Set(['job', 'archive'])

async function shapeOf(db: SqlExecutor, schema: string): Promise<{ tables: Shape; states: string[] }> {
  const { rows } = await db.query<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = ANY($2::text[]) ORDER BY table_name, ordinal_position`,
    [schema, Object.keys(PG_BOSS_TABLES)],
  )
  const tables: Shape = {}
  for (const r of rows) (tables[r.table_name] ??= {})[r.column_name] = r.data_type
  const states = await db.query<{ label: string }>(
    `SELECT e.enumlabel AS label FROM pg_enum AS e JOIN pg_type AS ty ON ty.oid = e.enumtypid JOIN pg_namespace AS n ON n.oid = ty.typnamespace
     WHERE n.nspname = $1 AND ty.typname = 'job_state' ORDER BY e.enumsortorder`,
    [schema],
  )
  return { tables, states: states.rows.map((r) => r.label) }
}

function compare(t: Test, found: { tables: Shape; states: string[] }, where: string): void {
  for (const [table, columns] of Object.entries(PG_BOSS_TABLES)) {
    const installed = found.tables[table] ?? {}
    const used = Object.fromEntries(Object.keys(columns).map((c) => [c, installed[c] ?? '(missing)']))
    t.same(used, columns, `${where}: ${table} has the columns the statements use, with their types`)
    if (WHOLE_ROWS.has(table)) t.same(Object.keys(installed).sort(), Object.keys(columns).sort(), `${where}: ${table} has no column the statements leave out`)
  }
  t.same(found.states, PG_BOSS_JOB_STATES, `${where}: the job states, in their order`)
}

engineTest(t, 'the migrated queue schema has the shape the statements are written for', async (t, { db }) => {
  compare(t, await shapeOf(db, QUEUE_SCHEMA), 'migrated')
})

engineTest(t, 'the installed pg-boss builds tables of that shape', async (t, { db }) => {
  const require = createRequire(import.meta.url)
  const plans = require('pg-boss/src/plans.js') as { create: (schema: string, version: number) => string }
  const { schema: version } = require('pg-boss/version.json') as { schema: number }
  const probe = 'boss_shape_probe'
  await db.exec(plans.create(probe, version))
  t.teardown(() => db.exec(`DROP SCHEMA IF EXISTS ${probe} CASCADE`))
  compare(t, await shapeOf(db, probe), `pg-boss schema ${version}`)
})
