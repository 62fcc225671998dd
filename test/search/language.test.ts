// test-runner: shares a process
import t from 'tap'
import { getSearchLanguage, search, setSearchLanguage, type ReindexProgress } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { context, importAll, slugs, type PageSpec } from './helpers.js'

const pages: PageSpec[] = [
  { slug: 'notes/haeuser', content: 'Die Häuser am Fluss wurden im Winter gebaut.' },
  { slug: 'notes/garten', content: 'Der Garten hinter dem Hof blüht im Frühling.' },
  { slug: 'notes/english', content: 'The running dogs chased the houses of cards.' },
]

type Stats = { lexemes: Array<[string, string]>; corpus: [string, string] | null }
async function stats(db: Parameters<typeof setSearchLanguage>[0]): Promise<Stats> {
  const lex = await db.query<{ lexeme: string; chunk_count: string }>('SELECT lexeme, chunk_count::text FROM search_lexeme_stats WHERE chunk_count <> 0 ORDER BY lexeme')
  const corpus = await db.query<{ chunk_count: string; total_length: string }>('SELECT chunk_count::text, total_length::text FROM search_corpus_stats WHERE id = 1')
  const c = corpus.rows[0]
  return { lexemes: lex.rows.map((r) => [r.lexeme, r.chunk_count]), corpus: c ? [c.chunk_count, c.total_length] : null }
}

engineTest(t, 'search.language: default english, switch re-indexes, statistics stay exact', async (t, { db }) => {
  await importAll(db, pages, null)
  const ctx = context(db, undefined)
  t.equal(await getSearchLanguage(db), 'english', 'english by default')
  t.same(slugs(await search(ctx, 'run dog')), ['notes/english'], 'english stemming by default')
  t.same(slugs(await search(ctx, 'Haus')), [], 'english does not stem German plurals')

  const progress: ReindexProgress[] = []
  const done = await setSearchLanguage(db, 'german', (p) => progress.push(p))
  t.equal(done.language, 'german')
  t.ok(done.chunks >= pages.length, 'every chunk re-indexed')
  const last = progress.filter((p) => p.table === 'content_chunks').at(-1)
  t.equal(last?.done, last?.total, 'progress reaches the total')
  t.equal(await getSearchLanguage(db), 'german')
  t.same(slugs(await search(ctx, 'Haus')), ['notes/haeuser'], 'German brain finds Häuser by Haus')
  t.same(slugs(await search(ctx, 'Gärten')), ['notes/garten'], 'and Garten by Gärten')
  const switched = await stats(db)

  await t.test('statistics equal those of a fresh import in german', async (t) => {
    await db.query('DELETE FROM pages')
    t.same(await stats(db), { lexemes: [], corpus: switched.corpus ? ['0', '0'] : null }, 'statistics empty after delete')
    await importAll(db, pages, null)
    t.same(await stats(db), switched)
  })

  await t.test('an unknown configuration is refused with a typed error', async (t) => {
    await t.rejects(setSearchLanguage(db, 'klingon'), { code: 'unknown_search_language' })
    t.equal(await getSearchLanguage(db), 'german', 'the setting is unchanged')
  })
})
