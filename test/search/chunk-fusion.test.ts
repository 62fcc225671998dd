// test-runner: shares a process
import t from 'tap'
import { fuseChunks, type ChunkCandidate, HYBRID_KEYWORD_WEIGHT } from '../../src/search/hybrid.js'
import { planSearch, query, withSearchTransaction } from '../../src/search/index.js'
import { vectorChunkRows } from '../../src/search/vector.js'
import { toVectorLiteral } from '../../src/embedding/index.js'
import { engineTest } from '../helpers/engines.js'
import { bagOfWordsEmbedder, context, importAll, slugs, type PageSpec } from './helpers.js'

/** The same (slug, chunk index) always gets the same chunk id, as rows of one database do. */
const ids = new Map<string, number>()
const chunk = (slug: string, chunkIndex: number, score: number): ChunkCandidate => {
  const key = `${slug}#${chunkIndex}`
  if (!ids.has(key)) ids.set(key, ids.size + 1)
  return { slug, source_id: 'default', chunk_id: ids.get(key)!, chunk_index: chunkIndex, score }
}

t.test('per-chunk fusion', async (t) => {
  const w = 0.3
  await t.test('words and meaning in the same chunk beat words in one chunk and meaning in another', async (t) => {
    // Page "split" has the words in chunk 0 (a code fence, say) and the meaning in chunk 1;
    // page "together" has a little less of each, in one chunk.
    const keyword = [chunk('split', 0, 10), chunk('together', 0, 8), chunk('other', 0, 2)]
    const vector = [chunk('split', 1, 0.8), chunk('together', 0, 0.7), chunk('split', 0, 0.1), chunk('other', 0, 0.2)]
    const fused = fuseChunks(keyword, vector, w)
    t.same(slugs(fused), ['together', 'split', 'other'])
    t.equal(fused[0]!.chunk_index, 0)
    t.ok(Math.abs(fused[0]!.score - (w * 0.75 + (1 - w) * 0.7)) < 1e-12, "BM25 min-max over the keyword list, plus the same chunk's cosine")
    t.equal(fused[1]!.chunk_index, 1, 'a page stands for its best chunk')
    t.ok(Math.abs(fused[1]!.score - (1 - w) * 0.8) < 1e-12, 'a chunk the keyword list lacks gets no keyword share')
  })

  await t.test('one result per page, best first, deterministic ties', async (t) => {
    const fused = fuseChunks([chunk('b', 0, 5), chunk('a', 0, 5), chunk('a', 1, 5)], [], w)
    t.same(
      fused.map((f) => [f.slug, f.chunk_index]),
      [
        ['a', 0],
        ['b', 0],
      ],
      'equal scores order by slug, then chunk index',
    )
    t.ok(
      fused.every((f) => f.score === w),
      'a keyword list of equal scores normalises to 1',
    )
    t.same(fuseChunks([], [], w), [])
    const vectorOnly = fuseChunks([], [chunk('v', 0, 0.5)], w)
    t.ok(Math.abs(vectorOnly[0]!.score - (1 - w) * 0.5) < 1e-12, 'no keyword candidates: cosine alone')
  })

  await t.test("the query's own words still count when the vectors disagree", async (t) => {
    // Same cosine for both pages: the one holding more of the query's words ranks first.
    const fused = fuseChunks([chunk('words', 0, 9), chunk('fewer', 0, 1)], [chunk('fewer', 0, 0.6), chunk('words', 0, 0.6)], w)
    t.same(slugs(fused), ['words', 'fewer'])
  })
})

const aliases = { automobile: 'car', mend: 'fix' }
const corpus: PageSpec[] = [
  { slug: 'notes/car', content: '# Car\n\nHow to fix a car: change the oil, check the brakes.' },
  { slug: 'concepts/zanzibar', content: '# Zanzibar\n\nThe zanzibar protocol for authorization checks.' },
  { slug: 'notes/bread', content: '# Bread\n\nKnead the dough, let it rise overnight, bake hot.' },
]

const cosine = (a: number[], b: number[]): number => {
  const dot = a.reduce((s, x, i) => s + x * b[i]!, 0)
  return dot / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0))
}

engineTest(t, 'hybrid search fuses per chunk', async (t, { db }) => {
  const embedder = bagOfWordsEmbedder('model-a', aliases)
  await importAll(db, corpus, embedder)
  const ctx = context(db, embedder)
  const { rows: chunks } = await db.query<{ id: number; slug: string; chunk_text: string }>('SELECT c.id, p.slug, c.chunk_text FROM content_chunks c JOIN pages p ON p.id = c.page_id ORDER BY p.slug')
  const zanzibar = chunks.find((c) => c.slug === 'concepts/zanzibar')!

  await t.test('keyword candidates outside the nearest chunks carry their exact cosine', async (t) => {
    const [q] = await embedder.embed(['mend automobile'])
    const plan = planSearch({ limit: 1 }, ctx.settings)
    const rows = await withSearchTransaction(db, (tx) => vectorChunkRows(tx, plan, toVectorLiteral(q!), 'model-a', [Number(zanzibar.id)]))
    t.same(slugs(rows), ['notes/car', 'concepts/zanzibar'], 'the nearest chunk, then the keyword candidate')
    const [zv] = await embedder.embed([zanzibar.chunk_text])
    t.ok(Math.abs(Number(rows[1]!.score) - cosine(q!, zv!) * 1.3) < 1e-5, 'cosine × the concepts/ factor')
    const other = await withSearchTransaction(db, (tx) => vectorChunkRows(tx, plan, toVectorLiteral(q!), 'model-b', [Number(zanzibar.id)]))
    t.same(other, [], 'vectors of another model are never read')
  })

  await t.test("scores are the weighted sum of normalised BM25 and the same chunk's cosine", async (t) => {
    const response = await query(ctx, 'zanzibar protocol')
    t.same(response.ran, ['keyword', 'vector'])
    const top = response.results[0]!
    t.equal(top.slug, 'concepts/zanzibar')
    const [q] = await embedder.embed(['zanzibar protocol'])
    const [zv] = await embedder.embed([zanzibar.chunk_text])
    const expected = HYBRID_KEYWORD_WEIGHT * 1 + (1 - HYBRID_KEYWORD_WEIGHT) * cosine(q!, zv!) * 1.3
    t.ok(Math.abs(top.score - expected) < 1e-5, `${top.score} ≈ ${expected}`)
    const paraphrase = await query(ctx, 'mend automobile')
    t.equal(paraphrase.results[0]!.slug, 'notes/car', 'a page sharing no word with the question rises on meaning alone')
  })
})
