// test-runner: shares a process
import t from 'tap'
import { codeRefs } from '../../src/code/index.js'
import { lexemeEstimate, probeEstimate, probeRefs, trigramRefs, walkCapFor, walkRefs } from '../../src/code/refs.js'
import type { Database, SqlExecutor, SqlParam } from '../../src/db/types.js'
import { importPage } from '../../src/pages/index.js'
import { engineTest } from '../helpers/engines.js'

/** How many generated files mention each needle (the probe in these tests reads 5 matches). */
const PROBE = 5
const FILES = 24

/** File i: a function named after it, calling the needles that file `i` carries. */
function fileText(i: number): string {
  const lines = [`export function handler${i}(input: string): string {`, '  const seen = new Set<string>()']
  lines.push(`  commonNeedle(input, ${i})`)
  if (i < PROBE) lines.push('  atBound(input)')
  if (i < PROBE + 1) lines.push('  pastBound(input)')
  if (i === 7 || i === 19) lines.push('  rareNeedle(input)')
  if (i % 3 === 0) lines.push("  const label = '50%_off'")
  if (i % 4 === 1) lines.push("  const café = 'ÉTÉ'")
  lines.push('  return input', '}', '')
  lines.push(`export function helper${i}(): number {`, `  return commonNeedle('x', ${i}) + ${i}`, '}', '')
  return lines.join('\n')
}

async function importFiles(db: Database): Promise<void> {
  // Imported out of slug order, so physical order and answer order differ.
  for (let k = 0; k < FILES; k++) {
    const i = (k * 7) % FILES
    const path = `gen/${String.fromCharCode(97 + (i % 5))}/file${i}.ts`
    await importPage(db, { slug: path, kind: 'code', content: fileText(i), path })
  }
  await importPage(db, { slug: 'gen/other.py', kind: 'code', content: 'def common_needle():\n    return commonNeedle(1)\n', path: 'gen/other.py' })
}

/**
 * The answer by definition, from a plain scan: every code chunk whose body ILIKE-contains the
 * needle (wildcards escaped), by slug, line and id.
 */
async function scan(db: Database, needle: string, language: string | null = null): Promise<string[]> {
  const literal = needle.replace(/[\\%_]/g, (c) => `\\${c}`)
  return db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off')
    const { rows } = await tx.query<{ slug: string; start_line: number }>(
      `SELECT p.slug, c.start_line FROM content_chunks c JOIN pages p ON p.id = c.page_id
       WHERE p.page_kind = 'code' AND c.chunk_source = 'code' AND ($2::text IS NULL OR c.language = $2)
         AND substr(c.chunk_text, strpos(c.chunk_text, E'\\n') + 1) ILIKE '%' || $1 || '%'
       ORDER BY p.slug, c.start_line, c.chunk_index, c.id`,
      [literal, language],
    )
    return rows.map((r) => `${r.slug}:${r.start_line}`)
  })
}

const keys = (rows: ReadonlyArray<{ slug: string; start_line?: number | null; startLine?: number | null }>): string[] => rows.map((r) => `${r.slug}:${r.startLine ?? r.start_line}`)

const NEEDLES = ['commonNeedle', '(', '):', 'COMMONNEEDLE', 'atBound', 'pastBound', 'rareNeedle', 'handler1', 'he', 'n', '50%_off', '%_', '_o', 'été', 'café', 'no such needle']

engineTest(t, 'code-refs answers like a scan whichever plan runs', async (t, { db }) => {
  await importFiles(db)
  t.ok((await scan(db, 'commonNeedle')).length > PROBE * 3, 'the common needle is in many chunks')
  t.equal((await scan(db, 'atBound')).length, PROBE, 'atBound is in exactly as many chunks as the probe reads')
  t.equal((await scan(db, 'pastBound')).length, PROBE + 1, 'pastBound is in one chunk more')
  for (const needle of NEEDLES) {
    const expected = await scan(db, needle)
    for (const limit of [1, 3, PROBE, PROBE + 1, 1000]) {
      for (const probeRows of [PROBE, 100]) {
        const answered = keys(await codeRefs(db, { symbol: needle, limit }, { probeRows }))
        t.same(answered, expected.slice(0, limit), `"${needle}" limit ${limit} probe ${probeRows}`)
      }
    }
  }
  const ts = await scan(db, 'commonNeedle', 'typescript')
  t.ok(ts.length > 0)
  t.ok(ts.length < (await scan(db, 'commonNeedle')).length, 'the language filter drops the Python chunk')
  t.same(keys(await codeRefs(db, { symbol: 'commonNeedle', language: 'ts', limit: 1000 }, { probeRows: PROBE })), ts)
})

engineTest(t, 'the probe reads every match of a rare needle and stops past the bound', async (t, { db }) => {
  await importFiles(db)
  const rare = await probeRefs(db, 'rareNeedle', null, 20, PROBE)
  t.ok(rare.complete, 'two matches: the probe saw them all')
  t.same(keys(rare.rows), await scan(db, 'rareNeedle'))
  const at = await probeRefs(db, 'atBound', null, 3, PROBE)
  t.ok(at.complete, 'exactly as many matches as the probe reads: still complete')
  t.same(keys(at.rows), (await scan(db, 'atBound')).slice(0, 3))
  const past = await probeRefs(db, 'pastBound', null, 3, PROBE)
  t.notOk(past.complete, 'one match more: the probe cannot know it saw them all')
  const common = await probeRefs(db, 'commonNeedle', null, 3, PROBE)
  t.notOk(common.complete)
  t.equal(common.rows.length, 3, 'it still locates the first matches it read')
})

engineTest(t, 'the ordered walk stops at the limit and gives up at its cap', async (t, { db }) => {
  await importFiles(db)
  const all = await scan(db, 'commonNeedle')
  for (const limit of [1, 4, all.length]) {
    const walked = await walkRefs(db, 'commonNeedle', null, limit, 10_000)
    t.same(walked === null ? null : keys(walked), all.slice(0, limit), `limit ${limit}`)
    t.same(walked, await trigramRefs(db, 'commonNeedle', null, limit), `limit ${limit}: same rows as the trigram plan`)
  }
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM content_chunks WHERE chunk_source = 'code'`)
  t.equal(await walkRefs(db, 'commonNeedle', null, all.length + 1, 10_000), null, 'fewer matches than the limit: no answer from the walk')
  t.equal(await walkRefs(db, 'rareNeedle', null, 2, 2), null, 'the cap comes before the matches')
  t.same(keys((await walkRefs(db, 'rareNeedle', null, 2, rows[0]!.n))!), await scan(db, 'rareNeedle'), 'a cap covering every chunk finds them')
  t.same(keys((await walkRefs(db, '50%_off', null, 3, 10_000))!), (await scan(db, '50%_off')).slice(0, 3), '% and _ are literal in the walk')
  t.same(await walkRefs(db, 'ÉTÉ', null, 2, 10_000), await trigramRefs(db, 'ÉTÉ', null, 2), 'case folds beyond ASCII as ILIKE does')
  t.same(keys((await walkRefs(db, 'ÉTÉ', null, 2, 10_000))!), (await scan(db, 'ÉTÉ')).slice(0, 2))
})

engineTest(t, 'the keyword statistics estimate how common a needle is', async (t, { db }) => {
  await importFiles(db)
  const common = await lexemeEstimate(db, 'commonNeedle')
  t.ok(common !== null && common.matches >= (await scan(db, 'commonNeedle')).length - 1, 'about as many chunks as hold it')
  t.ok(common !== null && common.chunks >= common.matches)
  t.ok(walkCapFor(common!, 3) !== null, 'a needle in every chunk is walked for at a small limit')
  t.equal(walkCapFor(common!, 1000), null, 'and rechecked when the limit is past every match')
  t.same(await lexemeEstimate(db, 'rareNeedle'), { matches: 2, chunks: common!.chunks }, 'two chunks')
  t.equal((await lexemeEstimate(db, 'nowhereNeedle'))?.matches, 0, 'a lexeme no chunk holds: none')
  t.equal((await lexemeEstimate(db, 'rareNeedle commonNeedle'))?.matches, 2, 'several lexemes: the rarest')
  t.equal(await lexemeEstimate(db, '%_'), null, 'no lexeme: no estimate (the probe decides)')
})

engineTest(t, 'the walk reads code pages alone, through their own slug index', async (t, { db }) => {
  await importFiles(db)
  // Notes whose slugs sort before the code pages, one of them mentioning the needle.
  for (let i = 0; i < 12; i++) {
    await importPage(db, { slug: `a-note-${i}`, kind: 'markdown', content: `# Note ${i}\n\nSee commonNeedle in gen/.\n` })
  }
  const walked = await walkRefs(db, 'commonNeedle', null, 4, 10_000)
  t.same(walked === null ? null : keys(walked), (await scan(db, 'commonNeedle')).slice(0, 4), 'notes are never answers')
  let seen: { sql: string; params: readonly SqlParam[] } | undefined
  const spy: SqlExecutor = {
    query: (sql, params) => {
      seen = { sql, params: params ?? [] }
      return db.query(sql, params)
    },
    exec: (sql) => db.exec(sql),
  }
  await walkRefs(spy, 'commonNeedle', null, 4, 10_000)
  // Tiny tables are cheaper to scan and sort: forbid that, so the plan shows the path a large
  // brain takes.
  const plan = await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off')
    const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${seen!.sql}`, seen!.params)
    return rows.map((r) => r['QUERY PLAN']).join('\n')
  })
  t.match(plan, /pages_code_slug_idx/, 'pages are walked through the index of code pages')
})

t.test('the walk runs only when the limit-th match is expected before the matches run out', async (t) => {
  // 101 matches in the first 10 of 1,000 blocks: about 10,100 matches among 8,000 chunks.
  t.equal(walkCapFor(probeEstimate({ found: 101, scanned_blocks: 10, blocks: 1000, rows_per_block: 8 }), 20), 64, 'four times the expected 16 chunks')
  // 101 matches in all 1,000 blocks: 101 matches, the 20th expected after ~1,584 chunks.
  t.equal(walkCapFor(probeEstimate({ found: 101, scanned_blocks: 1000, blocks: 1000, rows_per_block: 8 }), 20), null)
  t.equal(walkCapFor(probeEstimate({ found: 101, scanned_blocks: 500, blocks: 1000, rows_per_block: null }), 20), null, 'no statistics: 8 chunks a block')
  // 1,010 matches, the 20th expected after ~158 chunks: four times that.
  t.equal(walkCapFor(probeEstimate({ found: 101, scanned_blocks: 100, blocks: 1000, rows_per_block: 8 }), 20), 634)
  // 505 matches, the 20th expected after ~317 chunks: capped at twice the matches (a walk step
  // costs half a recheck).
  t.equal(walkCapFor(probeEstimate({ found: 101, scanned_blocks: 200, blocks: 1000, rows_per_block: 8 }), 20), 1010)
  t.equal(walkCapFor(probeEstimate({ found: 101, scanned_blocks: 1, blocks: 1, rows_per_block: 8 }), 20), 20, 'never under the limit')
})
