// test-runner: shares a process
import t from 'tap'
import { codeRefs } from '../../src/code/index.js'
import { trigramRefs } from '../../src/code/refs.js'
import type { Database } from '../../src/db/types.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'
import { captureLastQuery } from '../helpers/query-spy.js'
import { importRepo } from './fixture.js'

/** Every code chunk whose body (text after the header line) contains the needle, by slug then line. */
async function expectedRefs(db: Database, needle: string): Promise<string[]> {
  const { rows } = await db.query<{ slug: string; chunk_text: string; start_line: number; chunk_index: number }>(
    `SELECT p.slug, c.chunk_text, c.start_line, c.chunk_index FROM content_chunks c JOIN pages p ON p.id = c.page_id
     WHERE p.page_kind = 'code' ORDER BY p.slug, c.start_line, c.chunk_index`,
  )
  return rows
    .filter((r) =>
      r.chunk_text
        .slice(r.chunk_text.indexOf('\n') + 1)
        .toLowerCase()
        .includes(needle.toLowerCase()),
    )
    .map((r) => `${r.slug}:${r.start_line}`)
}

engineTest(t, 'code-refs answers every needle length the same as a scan of the chunk bodies', async (t, { db }) => {
  await importRepo(db)
  // A markdown page with a code fence: its chunks are never code-refs answers.
  await importPage(db, { slug: 'notes/fence', kind: 'markdown', content: '# Fence\n\nSee below.\n\n```ts\nq.submit(enqueue(job))\n```\n' })
  const fenced = await db.query(`SELECT 1 FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.slug = 'notes/fence' AND c.chunk_text ILIKE '%q.submit%'`)
  t.ok(fenced.rows.length > 0, 'the fence is a chunk that mentions the needles')
  // Under three characters there is no trigram to look up; `_` and `%` are literal, not wildcards.
  for (const needle of ['q.', 'Qu', 'x', '(', 'EnQueue', 'job: string', 'renderTitle', 'dup_', '_b', '100', 'no such symbol']) {
    const answered = (await codeRefs(db, { symbol: needle, limit: 1000 })).map((r) => `${r.slug}:${r.startLine}`)
    t.same(answered, await expectedRefs(db, needle), `"${needle}"`)
  }
  t.ok((await expectedRefs(db, 'q.')).length > 0, 'the short needles do match something')
})

engineTest(t, 'the code-refs query can be answered from the trigram index of code chunk bodies', async (t, { db }) => {
  const index = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE indexname = 'content_chunks_code_body_trgm_idx'`)
  t.equal(index.rows.length, 1, 'the migration created the index')
  await importRepo(db)
  // An identifier like this one is answered by the word plan; the trigram plan is the one that
  // answers other symbols (punctuation, non-ASCII).
  const { sql, params } = await captureLastQuery(db, (spy) => trigramRefs(spy, 'enqueue', null, 20))
  // A tiny table is cheaper to scan or to reach through its page: forbid both, so the only way
  // left to content_chunks other than a (penalised) scan is a bitmap on the trigram index.
  const plan = await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; SET LOCAL enable_nestloop = off')
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  })
  t.match(plan, /content_chunks_code_body_trgm_idx/, 'the planner can use the index')
})
