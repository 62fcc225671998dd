// test-runner: shares a process
import t from 'tap'
import type { SqlExecutor } from '../../src/db/types.js'
import { engineTest } from '../helpers/engines.js'

/** How many named statements this session holds for `text`. */
async function namedCopies(tx: SqlExecutor, text: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1', [text])
  return Number(rows[0]!.n)
}

const TYPED = `SELECT $1::bigint + 1 AS big, $2::numeric * 2 AS num, array_length($3::text[], 1) AS words, ($4::float8[])[2] AS second,
  $5::jsonb ->> 'name' AS name, $6::timestamptz AS at, $7::text IS NULL AS missing, NOT $8::boolean AS flipped, $3::text[] AS echoed`

engineTest(t, 'a statement marked prepared returns what the same statement returns unprepared', async (t, { db }) => {
  const at = new Date('2024-05-06T07:08:09.010Z')
  const params = [41, 1.25, ['a', 'b"c', "d'e", 'f,g'], [0.5, 2.75], { name: 'x' }, at, null, false]
  const plain = await db.transaction((tx) => tx.query(TYPED, params))
  for (let run = 0; run < 3; run++) {
    const prepared = await db.transaction((tx) => tx.query(TYPED, params, { prepared: true }))
    t.same(prepared.rows, plain.rows, `run ${run + 1} inside a transaction`)
    t.equal(prepared.rowCount, 1)
  }
  t.same((await db.query(TYPED, params, { prepared: true })).rows, plain.rows, 'outside a transaction too')
  const row = plain.rows[0] as Record<string, unknown>
  t.same(row, { big: 42, num: 2.5, words: 4, second: 2.75, name: 'x', at, missing: true, flipped: true, echoed: ['a', 'b"c', "d'e", 'f,g'] })
  t.equal(await db.transaction((tx) => namedCopies(tx, TYPED)), 1, 'parsed once, then reused')
  const none = await db.transaction((tx) => tx.query('SELECT 1 AS x WHERE $1::int > 5', [1], { prepared: true }))
  t.same(none, { rows: [], rowCount: 0 }, 'no rows')
})

engineTest(t, 'a prepared statement that fails rolls its transaction back and runs again afterwards', async (t, { db }) => {
  await db.exec('CREATE TABLE prepared_probe (n int)')
  const divide = 'SELECT 10 / $1::int AS q'
  await t.rejects(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO prepared_probe VALUES (1)')
      await tx.query(divide, [0], { prepared: true })
    }),
    { code: '22012' },
    'division by zero, with its SQLSTATE',
  )
  t.equal(Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM prepared_probe')).rows[0]!.n), 0, 'the insert before it was rolled back')
  const { rows } = await db.transaction((tx) => tx.query<{ q: number }>(divide, [5], { prepared: true }))
  t.same(rows, [{ q: 2 }])
})

engineTest(t, 'the embedded engine keeps a bounded number of named statements', async (t, { engine, db }) => {
  const texts = Array.from({ length: 300 }, (_, i) => `SELECT $1::int + ${i} AS n`)
  await db.transaction(async (tx) => {
    for (const [i, text] of texts.entries()) t.equal((await tx.query<{ n: number }>(text, [1], { prepared: true })).rows[0]!.n, i + 1)
  })
  const held = await db.transaction(async (tx) => Number((await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + %'`)).rows[0]!.n))
  if (engine === 'pglite') t.ok(held <= 256, `${held} held`)
  else t.ok(held > 0)
  const again = await db.transaction((tx) => tx.query<{ n: number }>(texts[0]!, [1], { prepared: true }))
  t.same(again.rows, [{ n: 1 }], 'a closed statement is prepared again when asked for')
})
