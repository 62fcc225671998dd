// test-runner: shares a process
import t from 'tap'
import { codeRefs } from '../../src/code/index.js'
import { wordRefs, type WordPlanOptions } from '../../src/code/refs.js'
import type { Database, SqlExecutor } from '../../src/db/types.js'
import { deletePage, importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { captureLastQuery } from '../helpers/query-spy.js'

const FILES = 26

/** File i: functions calling needles of every kind, some near non-ASCII text. */
function fileText(i: number): string {
  const lines = [`export function importPage${i}(input: string): string {`, `  const page_count = countPage(input, ${i})`]
  if (i % 2 === 0) lines.push('  importPage(input)')
  if (i === 5 || i === 13) lines.push('  rareNeedle(input)')
  if (i % 3 === 0) lines.push('  const is_dirty_flag = page_count > 0')
  if (i % 4 === 1) lines.push("  const label = 'éimportPageü' + 'ÉTÉ_page'")
  if (i % 5 === 2) lines.push("  const kelvin = '\u212Aey_note' + 'İnput'")
  lines.push('  return input', '}', '')
  lines.push(`export function helper${i}(): number {`, `  return countPage('x', ${i}) + WholeWord`, '}', '')
  return lines.join('\n')
}

async function importFiles(db: Database): Promise<void> {
  // Imported out of slug order, so physical order and answer order differ.
  for (let k = 0; k < FILES; k++) {
    const i = (k * 7) % FILES
    const path = `gen/${String.fromCharCode(97 + (i % 4))}/file${i}.ts`
    await importPage(db, { slug: path, kind: 'code', content: fileText(i), path })
  }
  await importPage(db, { slug: 'gen/other.py', kind: 'code', content: 'def count_page():\n    return countPage(1)\n', path: 'gen/other.py' })
  // A note mentioning the needles: never an answer.
  await importPage(db, { slug: 'notes/about', kind: 'markdown', content: '# About\n\nimportPage and countPage, rareNeedle.\n' })
}

/**
 * The answer by definition, from a plain scan: every code chunk of a code page whose body
 * ILIKE-contains the needle (wildcards escaped), by slug, line, chunk index and id.
 */
async function scan(db: Database, needle: string, language: string | null = null): Promise<string[]> {
  const literal = needle.replace(/[\\%_]/g, (c) => `\\${c}`)
  return db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off')
    const { rows } = await tx.query<{ slug: string; start_line: number; id: number }>(
      `SELECT p.slug, c.start_line, c.id FROM content_chunks c JOIN pages p ON p.id = c.page_id
       WHERE p.page_kind = 'code' AND c.chunk_source = 'code' AND ($2::text IS NULL OR c.language = $2)
         AND substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1) ILIKE '%' || $1 || '%'
       ORDER BY p.slug, c.start_line, c.chunk_index, c.id`,
      [literal, language],
    )
    return rows.map((r) => `${r.slug}:${r.start_line}:${r.id}`)
  })
}

async function words(db: Database, needle: string, limit: number, options: WordPlanOptions = {}, language: string | null = null): Promise<string[] | null> {
  const rows = await wordRefs(db, needle, language, limit, options)
  return rows === null ? null : rows.map((r) => `${r.slug}:${r.start_line}:${r.chunk_id}`)
}

/** Both branches of the word plan: the walk (a cap past every chunk) and the index (no walk). */
const BRANCHES: Array<[string, WordPlanOptions]> = [
  ['walk', { walkCap: 100_000 }],
  ['index', { walkCap: 0 }],
  ['default', {}],
]

const NEEDLES = {
  common: 'countPage',
  rare: 'rareNeedle',
  underscore: 'is_dirty',
  underscoreWildcard: 'page_',
  mixedCase: 'IMPORTpage',
  insideLonger: 'Page',
  nearNonAscii: 'ey_note',
  wholeWord: 'WholeWord',
  absent: 'noSuchNeedle',
}

engineTest(t, 'the word plan answers exactly like a scan of the chunk bodies, on both of its branches', async (t, { db }) => {
  await importFiles(db)
  t.ok((await scan(db, NEEDLES.common)).length > 20, 'the common needle is in more chunks than the limit')
  t.equal((await scan(db, NEEDLES.rare)).length, 2, 'the rare needle is in two chunks')
  t.ok((await scan(db, NEEDLES.nearNonAscii)).length > 0, 'the needle next to non-ASCII text is found by the scan')
  t.ok((await scan(db, 'page_count')).length > 0)
  for (const [kind, needle] of Object.entries(NEEDLES)) {
    const expected = await scan(db, needle)
    for (const limit of [1, 3, 20, 1000]) {
      for (const [branch, options] of BRANCHES) {
        t.same(await words(db, needle, limit, options), expected.slice(0, limit), `${kind} "${needle}" limit ${limit} ${branch}`)
      }
    }
    const answered = (await codeRefs(db, { symbol: needle, limit: 1000 })).map((r) => `${r.slug}:${r.startLine}`)
    t.same(
      answered,
      expected.map((k) => k.split(':').slice(0, 2).join(':')),
      `code-refs "${needle}"`,
    )
  }
  // `_` is literal: `page_` must not match `pageX`.
  t.ok((await scan(db, 'page_')).length < (await scan(db, 'page')).length, 'the underscore narrows the match')
  const ts = await scan(db, NEEDLES.common, 'typescript')
  t.ok(ts.length > 0 && ts.length < (await scan(db, NEEDLES.common)).length, 'the language filter drops the Python chunk')
  for (const [branch, options] of BRANCHES) t.same(await words(db, NEEDLES.common, 1000, options, 'typescript'), ts, `language filter, ${branch}`)
})

engineTest(t, 'past the expansion cap the word plan gives way and code-refs still answers exactly', async (t, { db }) => {
  await importFiles(db)
  // `page` is in importpage0 … importpage25, page_count, countpage, …: far more than two words.
  t.equal(await words(db, 'page', 20, { expansionCap: 2, walkCap: 0 }), null, 'over the cap: no answer from the word plan')
  t.same(await words(db, 'page', 20, { expansionCap: 2, walkCap: 100_000 }), (await scan(db, 'page')).slice(0, 20), 'a walk that fills the limit needs no expansion')
  t.notSame(await words(db, 'rareNeedle', 20, { expansionCap: 2, walkCap: 0 }), null, 'under the cap: answered')
  const answered = (await codeRefs(db, { symbol: 'page', limit: 1000 })).map((r) => `${r.slug}:${r.startLine}`)
  t.same(
    answered,
    (await scan(db, 'page')).map((k) => k.split(':').slice(0, 2).join(':')),
  )
})

/** The words row of every code chunk of a page, by chunk index. */
async function wordRows(db: Database, slug: string): Promise<Array<{ slug: string; words: string }>> {
  const { rows } = await db.query<{ slug: string; words: string }>(
    `SELECT k.slug, k.words FROM code_chunk_words k JOIN content_chunks c ON c.id = k.chunk_id JOIN pages p ON p.id = c.page_id
     WHERE p.slug = $1 ORDER BY k.chunk_index`,
    [slug],
  )
  return rows
}

engineTest(t, 'the word rows follow every write of a chunk or its page', async (t, { db }) => {
  await importFiles(db)
  const { rows: counts } = await db.query<{ chunks: number; rows: number }>(
    `SELECT (SELECT count(*) FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.page_kind = 'code' AND c.chunk_source = 'code')::int AS chunks,
            (SELECT count(*) FROM code_chunk_words)::int AS rows`,
  )
  t.equal(counts[0]!.rows, counts[0]!.chunks, 'one row per code chunk of a code page, none for the note')
  t.ok(counts[0]!.chunks > 0)

  // Re-import with new text: the chunk's words are replaced, the old word no longer answers.
  await importPage(db, { slug: 'gen/other.py', kind: 'code', content: 'def count_page():\n    return freshlyAdded(1)\n', path: 'gen/other.py' })
  const other = (await wordRows(db, 'gen/other.py')).map((r) => r.words).join(' ')
  t.match(other, /\bfreshlyadded\b/, 'the new word is there')
  t.notMatch(other, /\bcountpage\b/, 'the old word is gone')
  for (const [branch, options] of BRANCHES) {
    t.same(await words(db, 'freshlyAdded', 20, options), await scan(db, 'freshlyAdded'), `the new text answers (${branch})`)
    t.same(await words(db, 'countPage', 1000, options), await scan(db, 'countPage'), `the old text does not (${branch})`)
  }

  // An update of the text in place (not through the importer) is followed too.
  await db.query(`UPDATE content_chunks c SET chunk_text = chunk_text || E'\\n  updatedInPlace()' FROM pages p WHERE p.id = c.page_id AND p.slug = 'gen/a/file0.ts'`)
  t.ok((await scan(db, 'updatedInPlace')).length > 0)
  for (const [branch, options] of BRANCHES) t.same(await words(db, 'updatedInPlace', 20, options), await scan(db, 'updatedInPlace'), `updated in place (${branch})`)

  // A deleted page leaves no rows.
  t.ok((await wordRows(db, 'gen/b/file5.ts')).length > 0)
  const ids = (await db.query<{ id: number }>(`SELECT c.id FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.slug = 'gen/b/file5.ts'`)).rows.map((r) => r.id)
  t.ok(await deletePage(db, 'default', 'gen/b/file5.ts'))
  const left = await db.query(`SELECT 1 FROM code_chunk_words WHERE chunk_id = ANY($1::bigint[])`, [ids])
  t.equal(left.rows.length, 0, 'no word rows of the deleted page')
  for (const [branch, options] of BRANCHES) t.same(await words(db, 'rareNeedle', 20, options), await scan(db, 'rareNeedle'), `after the delete (${branch})`)
  t.equal((await scan(db, 'rareNeedle')).length, 1, 'one of the two rare chunks went with the page')

  // A moved page answers in its new place in the order.
  const before = await scan(db, 'countPage')
  await db.query(`UPDATE pages SET slug = 'zz/moved.ts' WHERE slug = 'gen/a/file4.ts'`)
  t.ok(
    (await wordRows(db, 'zz/moved.ts')).every((r) => r.slug === 'zz/moved.ts'),
    'the rows carry the new slug',
  )
  const after = await scan(db, 'countPage')
  t.notSame(after, before, 'the move changes the order')
  t.match(after.at(-1) ?? '', /^zz\/moved\.ts:/, 'the moved page sorts last')
  for (const [branch, options] of BRANCHES) {
    t.same(await words(db, 'countPage', 1000, options), after, `moved, all (${branch})`)
    t.same(await words(db, 'countPage', 3, options), after.slice(0, 3), `moved, limited (${branch})`)
  }

  // A page that stops being a code page leaves the answers; back again, it returns.
  await db.query(`UPDATE pages SET page_kind = 'markdown' WHERE slug = 'zz/moved.ts'`)
  t.equal((await wordRows(db, 'zz/moved.ts')).length, 0, 'no rows for a page that is not code')
  t.same(await words(db, 'countPage', 1000), await scan(db, 'countPage'))
  await db.query(`UPDATE pages SET page_kind = 'code' WHERE slug = 'zz/moved.ts'`)
  t.ok((await wordRows(db, 'zz/moved.ts')).length > 0, 'rows again once it is code')
  t.same(await words(db, 'countPage', 1000), await scan(db, 'countPage'))
})

engineTest(t, 'an identifier is answered by the word plan alone, through its indexes', async (t, { db }) => {
  await importFiles(db)
  const statements: string[] = []
  const spy: SqlExecutor = { query: (sql, params) => (statements.push(sql), db.query(sql, params)), exec: (sql) => db.exec(sql) }
  await codeRefs(spy, { symbol: 'rareNeedle' })
  t.equal(statements.length, 1, 'one statement')
  t.match(statements[0]!, /code_chunk_words/)
  statements.length = 0
  await codeRefs(spy, { symbol: 'a(' })
  t.notMatch(statements.join('\n'), /code_chunk_words/, 'punctuation keeps the other plans')

  const { sql, params } = await captureLastQuery(db, (s) => wordRefs(s, 'rareNeedle', null, 20, { walkCap: 0 }))
  // A tiny table is cheaper to scan: forbid that, so what remains shows the indexes can answer.
  const plan = await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_seqscan = off')
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  })
  t.match(plan, /code_chunk_words_order_idx/, 'the walk reads the rows in answer order through their index')
  t.match(plan, /code_chunk_words_words_idx/, 'the matches are found through the GIN index of the words')
})
