// test-runner: shares a process
import t from 'tap'
import type { Database, SqlParam } from '../../src/db/types.js'
import { openPostgres } from '../../src/db/pg-driver.js'
import { deletePage } from '../../src/pages/page-repository.js'
import { query, search } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { bagOfWordsEmbedder, context, importAll, slugs } from './helpers.js'

async function generation(db: Database): Promise<number> {
  const { rows } = await db.query<{ generation: string }>('SELECT generation::text AS generation FROM search_generation WHERE id = 1')
  return Number(rows[0]!.generation)
}

/** Counts the ranking statements a database runs, to tell a kept answer from a computed one. */
function countingRankings(db: Database): { db: Database; rankings: () => number } {
  let rankings = 0
  const counted: Database = Object.create(db) as Database
  counted.query = async <R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]) => {
    if (sql.includes('WITH ranked')) rankings++
    return db.query<R>(sql, params)
  }
  counted.transaction = (fn) =>
    db.transaction((tx) =>
      fn({
        ...tx,
        query: async <R extends object = Record<string, unknown>>(sql: string, params?: readonly SqlParam[]) => {
          if (sql.includes('WITH ranked')) rankings++
          return tx.query<R>(sql, params)
        },
      }),
    )
  return { db: counted, rankings: () => rankings }
}

engineTest(t, 'kept keyword results: served until a write, then recomputed', async (t, { db: raw }) => {
  await importAll(
    raw,
    [
      { slug: 'notes/otters', content: '# Otters\n\nRiver otters hold hands while they sleep.' },
      { slug: 'notes/seals', content: '# Seals\n\nHarbour seals sleep in the water.' },
    ],
    null,
  )
  const { db, rankings } = countingRankings(raw)
  const ctx = context(db, undefined)

  const first = await search(ctx, 'otters sleep')
  const ranked = rankings()
  t.ok(ranked >= 1, 'the first search ranks')
  const again = await search(ctx, 'otters sleep')
  t.equal(rankings(), ranked, 'the same search again runs no ranking statement')
  t.same(slugs(again), slugs(first))
  t.not(again.results[0], first.results[0], 'each answer gets its own result objects')

  const other = await search(ctx, 'otters sleep', { limit: 1 })
  t.equal(rankings(), ranked + 1, 'other options are another entry')
  t.equal(other.results.length, 1)

  await importAll(raw, [{ slug: 'notes/sea-otters', content: '# Sea otters\n\nSea otters sleep wrapped in kelp.' }], null)
  const afterInsert = await search(ctx, 'otters sleep')
  t.ok(slugs(afterInsert).includes('notes/sea-otters'), 'a new page is found right after its write')

  await raw.query(`UPDATE pages SET title = 'Otters, renamed' WHERE slug = 'notes/otters'`)
  const afterTitle = await search(ctx, 'otters sleep')
  t.equal(afterTitle.results.find((r) => r.slug === 'notes/otters')?.title, 'Otters, renamed', 'a page-only change shows')

  await deletePage(raw, 'default', 'notes/sea-otters')
  t.notOk(slugs(await search(ctx, 'otters sleep')).includes('notes/sea-otters'), 'a deleted page is gone right away')
})

engineTest(t, 'the search generation moves once per committed write transaction', async (t, { db }) => {
  const before = await generation(db)
  await importAll(db, [{ slug: 'notes/many', content: `# Many\n\n${Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\nWords about part ${i}.`).join('\n\n')}` }], null)
  t.equal(await generation(db), before + 1, 'one page with many chunks, one transaction, one step')
  await db.query(`UPDATE content_chunks SET token_count = token_count + 1`)
  t.equal(await generation(db), before + 2, 'a chunk update moves it too')
  await db
    .transaction(async (tx) => {
      await tx.query(`UPDATE pages SET title = title || '!'`)
      await tx.query(`UPDATE content_chunks SET token_count = 0`)
    })
    .catch(() => undefined)
  t.equal(await generation(db), before + 3, 'pages and chunks written in one transaction count once')
  await db
    .transaction(async (tx) => {
      await tx.query(`UPDATE pages SET title = 'rolled back'`)
      throw new Error('abort')
    })
    .catch(() => undefined)
  t.equal(await generation(db), before + 3, 'a rolled-back write does not move it')
  const { rows } = await db.query<{ n: string }>('SELECT count(*)::text AS n FROM search_generation_pending')
  t.equal(rows[0]!.n, '0', 'no transaction marker outlives its transaction')
})

engineTest(t, 'hybrid search reuses the kept keyword side and still sees writes', async (t, { db: raw }) => {
  const embedder = bagOfWordsEmbedder()
  await importAll(
    raw,
    [
      { slug: 'notes/kettles', content: '# Kettles\n\nDescale the kettle with vinegar every month.' },
      { slug: 'notes/teapots', content: '# Teapots\n\nWarm the teapot before brewing.' },
    ],
    embedder,
  )
  const { db, rankings } = countingRankings(raw)
  const ctx = context(db, embedder)
  const first = await query(ctx, 'descale kettle')
  const ranked = rankings()
  t.same(slugs(await query(ctx, 'descale kettle')), slugs(first))
  t.equal(rankings(), ranked, 'the keyword side came from the cache')
  await importAll(raw, [{ slug: 'notes/descaling', content: '# Descaling\n\nDescale a kettle with citric acid.' }], embedder)
  t.ok(slugs(await query(ctx, 'descale kettle')).includes('notes/descaling'))
})

t.test('a write through another connection invalidates kept results [postgres]', async (t) => {
  const { openTestDatabase } = await import('../helpers/engines.js')
  const reader = await openTestDatabase('postgres')
  t.teardown(reader.cleanup)
  const writer = await openPostgres({ url: reader.url!, statementTimeoutMs: 0, idleTxTimeoutMs: 0, clientCheckIntervalMs: 0, retryConnect: false })
  t.teardown(() => writer.close())
  await importAll(writer, [{ slug: 'notes/lamps', content: '# Lamps\n\nBrass lamps need polishing.' }], null)
  const ctx = context(reader.db, undefined)
  t.same(slugs(await search(ctx, 'brass lamps')), ['notes/lamps'])
  await importAll(writer, [{ slug: 'notes/brass', content: '# Brass\n\nBrass lamps and brass bells.' }], null)
  t.same(slugs(await search(ctx, 'brass lamps')).sort(), ['notes/brass', 'notes/lamps'], "the other connection's page is found")
})

t.test('kept results are bounded by entries and by rows, least recently used first', async (t) => {
  const { KeptResults, RESULT_CACHE_ENTRIES, RESULT_CACHE_ROWS } = await import('../../src/search/result-cache.js')
  const rows = (n: number) => Array.from({ length: n }, () => ({}) as never)
  const kept = new KeptResults()
  for (let i = 0; i <= RESULT_CACHE_ENTRIES; i++) kept.set(`q${i}`, { generation: '1', rows: rows(1) })
  t.equal(kept.get('q0', '1'), undefined, 'the oldest entry left when the entry bound was passed')
  t.ok(kept.get('q1', '1'), 'the next one is still there')
  t.equal(kept.get('q1', '2'), undefined, 'an entry of another generation is not served')

  const big = new KeptResults()
  const perEntry = 100
  const fit = Math.floor(RESULT_CACHE_ROWS / perEntry)
  for (let i = 0; i < fit; i++) big.set(`q${i}`, { generation: '1', rows: rows(perEntry) })
  t.ok(big.get('q0', '1'), 'entries up to the row bound all stay')
  big.set('one-more', { generation: '1', rows: rows(perEntry) })
  t.equal(big.get('q1', '1'), undefined, 'passing the row bound drops the least recently used (q0 was just read)')
  t.ok(big.get('q0', '1'))
  t.ok(big.get('one-more', '1'))
})
