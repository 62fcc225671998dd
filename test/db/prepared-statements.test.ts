// test-runner: shares a process
import t from 'tap'
import { protocol } from '@electric-sql/pglite'
import { bindMessage } from '../../src/db/pglite-prepared.js'
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
  // Outside a transaction every engine runs a statement its own way (PGLite's own `query`).
  const plain = await db.query(TYPED, params)
  t.same((await db.transaction((tx) => tx.query(TYPED, params))).rows, plain.rows, 'unnamed inside a transaction')
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

t.test('a Bind message has the bytes PGLite writes for it', async (t) => {
  const texts = ['', 'plain', 'ünïcödé', '日本語のテキスト', 'emoji 🧠 and 𝔘', 'a b', 'x'.repeat(70_000), JSON.stringify({ 'a "quoted" key': ['é', 1, null] })]
  const cases: Array<{ statement: string; values: Array<string | null | Uint8Array> }> = [
    { statement: '', values: [] },
    { statement: '', values: texts },
    { statement: 'brain_7', values: [null, 'a', null] },
    { statement: 'brain_12', values: ['text', new Uint8Array([0, 1, 2, 255]), null] },
  ]
  for (let i = 0; i < 50; i++) {
    const values = Array.from({ length: 1 + (i % 7) }, (_, k) => (k % 5 === 4 ? null : texts[(i * 3 + k) % texts.length]!.slice(0, 1 + ((i * 37 + k * 11) % 500))))
    cases.push({ statement: i % 2 ? `brain_${i}` : '', values })
  }
  for (const { statement, values } of cases) {
    const theirs = protocol.serialize.bind({ statement, values })
    t.same(Buffer.from(bindMessage(statement, values)), Buffer.from(theirs), `${statement || 'unnamed'}: ${values.length} values`)
  }
})

engineTest(t, 'statements inside a transaction keep their errors, their counts and the transaction', async (t, { engine, db }) => {
  await db.exec('CREATE TABLE unnamed_probe (n int PRIMARY KEY, note text)')
  const inserted = await db.transaction((tx) => tx.query('INSERT INTO unnamed_probe SELECT g, $1 FROM generate_series(1, $2::int) AS g', ['ß→𝔘', 3]))
  t.equal(inserted.rowCount, 3, 'rows an insert wrote')
  const updated = await db.transaction((tx) => tx.query<{ n: number; note: string }>('UPDATE unnamed_probe SET note = note || $1 WHERE n > $2 RETURNING n, note', ['!', 1]))
  t.same(updated.rows.map((r) => [Number(r.n), r.note]).sort(), [
    [2, 'ß→𝔘!'],
    [3, 'ß→𝔘!'],
  ])
  await t.rejects(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO unnamed_probe VALUES ($1, $2)', [9, 'kept?'])
      await tx.query('INSERT INTO unnamed_probe VALUES ($1, $2)', [1, 'duplicate'])
    }),
    { code: '23505' },
    'a unique violation, with its SQLSTATE',
  )
  await t.rejects(
    db.transaction((tx) => tx.query('SELEC nothing', [])),
    { code: '42601' },
    'a syntax error',
  )
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM unnamed_probe')
  t.equal(Number(rows[0]!.n), 3, 'the failed transactions wrote nothing')
  if (engine !== 'pglite') return
  // The embedded engine has one session: a statement let through after its transaction would run outside it.
  let kept: SqlExecutor | null = null
  await db.transaction(async (tx) => {
    kept = tx
  })
  await t.rejects(kept!.query('SELECT $1::int AS one', [1]), 'a statement after its transaction ended is refused')
})
