// test-runner: shares a process
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { createRequire } from 'node:module'
import { hasMultipleStatements, pgBossDb } from '../../src/queue/pgboss-adapter.js'
import { migrationsDir } from '../../src/db/migrate.js'
import type { SqlExecutor } from '../../src/db/types.js'

t.test('multi-statement detection ignores separators in strings, comments and function bodies', async (t) => {
  const single = [
    'SELECT 1',
    'SELECT 1;',
    "SELECT ';' AS x;  \n",
    'SELECT 1 -- a; b\n',
    'SELECT /* ; */ 1',
    'CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END $$ LANGUAGE plpgsql',
    'SELECT $1, $2; ',
  ]
  const multi = ['BEGIN; SELECT 1; COMMIT;', "SELECT 'a'; SELECT 2", 'CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql; SELECT 1']
  for (const sql of single) t.notOk(hasMultipleStatements(sql), `single: ${JSON.stringify(sql)}`)
  for (const sql of multi) t.ok(hasMultipleStatements(sql), `multi: ${JSON.stringify(sql)}`)
})

t.test('pg-boss SQL reaches exec only when parameterless and multi-statement', async (t) => {
  const calls: string[] = []
  const fake: SqlExecutor = {
    async query(text, params) {
      calls.push(`query:${text}:${JSON.stringify(params)}`)
      return { rows: [{ ok: 1 }], rowCount: 1 } as never
    },
    async exec(sql) {
      calls.push(`exec:${sql}`)
    },
  }
  const db = pgBossDb(fake)
  t.same(await db.executeSql('BEGIN; SELECT 1; COMMIT;'), { rows: [] })
  t.same(await db.executeSql('SELECT 1'), { rows: [{ ok: 1 }] })
  t.same(await db.executeSql('SELECT $1', [5]), { rows: [{ ok: 1 }] })
  t.same(calls, ['exec:BEGIN; SELECT 1; COMMIT;', 'query:SELECT 1:[]', 'query:SELECT $1:[5]'])
})

t.test('closing the seam waits for the statement under way and drops what pg-boss sends after', async (t) => {
  const calls: string[] = []
  let release: () => void = () => undefined
  const fake: SqlExecutor = {
    async query(text) {
      calls.push(text)
      if (text === 'SLOW') await new Promise<void>((resolve) => (release = resolve))
      return { rows: [{ ok: 1 }], rowCount: 1 } as never
    },
    async exec() {},
  }
  const db = pgBossDb(fake)
  const slow = db.executeSql('SLOW', [1])
  let closed = false
  const closing = db.close().then(() => (closed = true))
  await new Promise((resolve) => setImmediate(resolve))
  t.notOk(closed, 'close waits for the statement under way')
  release()
  await closing
  t.same(await slow, { rows: [{ ok: 1 }] }, 'which completes')
  t.same(await db.executeSql('COMPLETE LATE', [1]), { rows: [] }, 'a statement after close gets no rows')
  t.same(calls, ['SLOW'], 'and never reaches the database')
})

/** pg-boss's construction plan for our schema, from the installed release (the migration carries a copy). */
function pgBossConstructionSql(version: number): string {
  const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as { create(schema: string, version: number): string }
  return plans.create('brain_queue', version)
}

t.test("migration 0100 carries pg-boss's construction plan unchanged", async (t) => {
  const migration = readFileSync(join(migrationsDir(), '0100_job_queue.sql'), 'utf8')
  const block = /-- pg-boss:begin\n([\s\S]*?)\n-- pg-boss:end/.exec(migration)?.[1]
  const expected = pgBossConstructionSql(24)
    .replace(/^\s*BEGIN;\s*\n/, '')
    .replace(/\n\s*COMMIT;\s*$/, '\n')
    .trim()
  t.equal(block, expected, 'regenerate the block with the command in the migration header')
})
