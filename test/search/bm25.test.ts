// test-runner: shares a process
import t from 'tap'
import { BM25_B, BM25_K1, bm25Idf } from '../../src/search/bm25.js'
import { search } from '../../src/search/index.js'
import { parseQuery } from '../../src/search/tsquery.js'
import { engineTest } from '../helpers/engines.js'
import { context, importAll, slugs, type PageSpec } from './helpers.js'

const filler = (n: number): string => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ')

t.test('queries split into words, prefixes, phrases and exclusions', async (t) => {
  t.same(parseQuery('sorted runs'), { words: ['sorted', 'runs'], prefixes: [], phrases: [], excluded: [] })
  t.same(parseQuery('"merges sorted runs" compac* -python -"read path" or tree'), {
    words: ['tree'],
    prefixes: ['compac'],
    phrases: ['merges sorted runs'],
    excluded: ['python', 'read path'],
  })
  t.same(parseQuery('"" - !!! *'), { words: [], prefixes: [], phrases: [], excluded: [] }, 'operators without words are dropped')
  t.same(parseQuery('treat --no-foo as false'), { words: ['treat', '--no-foo', 'as', 'false'], prefixes: [], phrases: [], excluded: [] }, 'a --flag is words, not an exclusion')
  t.same(parseQuery('"unclosed phrase'), { words: [], prefixes: [], phrases: ['unclosed phrase'], excluded: [] }, 'an unclosed quote runs to the end')
})

t.test('idf: rarer terms weigh more and never below zero', async (t) => {
  t.ok(bm25Idf(1, 100) > bm25Idf(10, 100))
  t.ok(bm25Idf(100, 100) > 0)
  t.equal(bm25Idf(500, 100), bm25Idf(100, 100), 'document frequency is clamped to the corpus size')
})

const rules: PageSpec[] = [
  // more matched terms beat fewer (same length)
  { slug: 'notes/three-terms', content: `walrus harbor lantern ${filler(20)}` },
  { slug: 'notes/one-term', content: `walrus ${filler(22)}` },
  // rarer beats common: "pebble" occurs in every filler page, "quokka" in one page
  { slug: 'notes/rare', content: `quokka ${filler(22)}` },
  { slug: 'notes/common', content: `pebble ${filler(22)}` },
  ...Array.from({ length: 8 }, (_, i) => ({ slug: `notes/pebbles-${i}`, content: `pebble stone gravel ${filler(10)} extra${i}` })),
  // length normalisation: the same single occurrence in a short and a long chunk
  { slug: 'notes/short', content: `zeppelin ${filler(5)}` },
  { slug: 'notes/long', content: `zeppelin ${filler(150)}` },
  // term frequency: more occurrences in chunks of one length rank higher
  { slug: 'notes/tf-three', content: `marmot marmot marmot ${filler(20)}` },
  { slug: 'notes/tf-one', content: `marmot ${filler(22)}` },
  // phrase, exclusion and prefix syntax
  { slug: 'notes/phrase', content: `compaction merges sorted runs into one ${filler(5)}` },
  { slug: 'notes/scattered', content: `runs are sorted before compaction merges them ${filler(5)}` },
  { slug: 'notes/python', content: `compaction in python code ${filler(5)}` },
  { slug: 'notes/flag', content: `pass --no-color to print plain text ${filler(5)}` },
]

engineTest(t, 'BM25 ranking rules', async (t, { db }) => {
  await importAll(db, rules, null)
  const ctx = context(db, undefined)
  const order = async (query: string): Promise<string[]> => slugs(await search(ctx, query, { limit: 50 }))

  await t.test('any query word makes a candidate; more matched words rank higher', async (t) => {
    const response = await search(ctx, 'walrus harbor lantern')
    t.equal(response.match, 'any')
    t.same(slugs(response).slice(0, 2), ['notes/three-terms', 'notes/one-term'])
  })

  await t.test('a rare word outweighs a common one', async (t) => {
    const found = await order('quokka pebble')
    t.equal(found[0], 'notes/rare')
    t.ok(found.indexOf('notes/rare') < found.indexOf('notes/common'), found.join(' '))
  })

  await t.test('length normalisation favours the shorter chunk', async (t) => {
    t.same(await order('zeppelin'), ['notes/short', 'notes/long'])
  })

  await t.test('term frequency counts, with saturation', async (t) => {
    t.same(await order('marmot'), ['notes/tf-three', 'notes/tf-one'])
  })

  await t.test('"phrases" must match as phrases; other words stay optional', async (t) => {
    t.same(await order('"sorted runs"'), ['notes/phrase'])
    const withWord = await order('"merges sorted" python')
    t.same(withWord, ['notes/phrase'], 'the phrase is required even when another word is optional')
  })

  await t.test('-exclusions remove pages, word* matches a prefix', async (t) => {
    const excluded = await order('compaction -python')
    t.notOk(excluded.includes('notes/python'))
    t.ok(excluded.includes('notes/phrase'))
    t.notOk((await order('compaction -"sorted runs"')).includes('notes/phrase'), 'an excluded phrase')
    t.ok((await order('compaction -"sorted runs"')).includes('notes/scattered'), 'the same words not as a phrase stay')
    t.ok((await order('compac*')).includes('notes/python'), 'prefix of compaction')
    t.ok((await order('zeppel*')).includes('notes/short'))
    t.same(await order('zzqx*'), [], 'a prefix nothing starts with')
    t.same(await order('-compaction'), [], 'exclusions alone match nothing')
    t.equal((await order('--no-color'))[0], 'notes/flag', 'a --flag is searched for, not excluded')
  })
})

engineTest(t, 'BM25 scores follow the formula from maintained statistics', async (t, { db }) => {
  // No headings, no stop words, every word its own lexeme: chunk length is the word count.
  const pages: PageSpec[] = [
    { slug: 'notes/a', content: 'kestrel kestrel falcon osprey' },
    { slug: 'notes/b', content: 'kestrel heron' },
    { slug: 'notes/c', content: 'heron egret ibis stork crane' },
  ]
  await importAll(db, pages, null)
  const ctx = context(db, undefined)
  const { rows: stats } = await db.query<{ chunk_count: string; total_length: string }>('SELECT chunk_count::text, total_length::text FROM search_corpus_stats')
  t.same(stats, [{ chunk_count: '3', total_length: '11' }], 'corpus totals')
  const { rows: df } = await db.query<{ lexeme: string; chunk_count: string }>(`SELECT lexeme, chunk_count::text FROM search_lexeme_stats WHERE lexeme IN ('kestrel', 'heron') ORDER BY lexeme`)
  t.same(
    df,
    [
      { lexeme: 'heron', chunk_count: '2' },
      { lexeme: 'kestrel', chunk_count: '2' },
    ],
    'document frequencies',
  )
  const avgdl = 11 / 3
  const term = (tf: number, dl: number, docFreq: number): number => (bm25Idf(docFreq, 3) * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * dl) / avgdl))
  const results = (await search(ctx, 'kestrel heron')).results
  const score = (slug: string): number => results.find((r) => r.slug === slug)?.score ?? NaN
  t.ok(Math.abs(score('notes/a') - term(2, 4, 2)) < 1e-9, `a: ${score('notes/a')} vs ${term(2, 4, 2)}`)
  t.ok(Math.abs(score('notes/b') - (term(1, 2, 2) + term(1, 2, 2))) < 1e-9, 'b: both terms')
  t.ok(Math.abs(score('notes/c') - term(1, 5, 2)) < 1e-9, 'c: one term')

  await t.test('statistics stay exact through updates and deletes', async (t) => {
    await importAll(db, [{ slug: 'notes/b', content: 'kestrel kestrel kestrel' }], null)
    await db.query(`DELETE FROM pages WHERE slug = 'notes/c'`)
    await db.query(`UPDATE content_chunks SET embedded_at = now()`)
    const { rows: kept } = await db.query<{ lexeme: string; chunk_count: string }>('SELECT lexeme, chunk_count::text FROM search_lexeme_stats WHERE chunk_count <> 0 ORDER BY lexeme')
    const { rows: fresh } = await db.query<{ lexeme: string; chunk_count: string }>(
      'SELECT l AS lexeme, count(*)::text AS chunk_count FROM content_chunks c, unnest(tsvector_to_array(c.search_vector)) AS l GROUP BY l ORDER BY l',
    )
    t.same(kept, fresh, 'per-lexeme counts equal a recount')
    const { rows: totals } = await db.query<{ chunk_count: string; total_length: string; recount: string; relength: string }>(
      `SELECT s.chunk_count::text, s.total_length::text, (SELECT count(*) FROM content_chunks)::text AS recount,
              (SELECT sum(search_length) FROM content_chunks)::text AS relength FROM search_corpus_stats s`,
    )
    t.equal(totals[0]!.chunk_count, totals[0]!.recount)
    t.equal(totals[0]!.total_length, totals[0]!.relength)
    t.equal(totals[0]!.relength, '7', 'lengths of the remaining chunks')
  })
})
