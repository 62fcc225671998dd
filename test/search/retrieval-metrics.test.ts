// test-runner: shares a process
import t from 'tap'
import { mean, ndcgAtK, percentile, recallAtK } from '../../bench/retrieval/metrics.js'
import { buildCorpus } from '../../bench/retrieval/corpus.js'
import { QUERIES } from '../../bench/retrieval/queries.js'

t.test('nDCG@k and recall@k with binary relevance', async (t) => {
  const rel = new Set(['a', 'b'])
  const cases: Array<[string[], number, number]> = [
    [['a', 'b', 'x'], 1, 1],
    [['b', 'a'], 1, 1],
    [['x', 'a', 'b'], (1 / Math.log2(3) + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)), 1],
    [['x', 'y', 'z', 'w', 'v', 'a'], 1 / Math.log2(7) / (1 + 1 / Math.log2(3)), 0],
    [[], 0, 0],
    [['a'], 1 / (1 + 1 / Math.log2(3)), 0.5],
  ]
  for (const [ranked, ndcg, recall] of cases) {
    t.ok(Math.abs(ndcgAtK(ranked, rel, 10) - ndcg) < 1e-12, `nDCG ${ranked.join(',')}`)
    t.equal(recallAtK(ranked, rel, 5), recall, `recall ${ranked.join(',')}`)
  }
  t.equal(ndcgAtK(['a'], new Set(), 10), 0, 'no relevant documents')
  t.equal(mean([]), 0)
  t.equal(mean([1, 2, 3]), 2)
  t.equal(percentile([5, 1, 4, 2, 3], 0.95), 5)
  t.equal(percentile([5, 1, 4, 2, 3], 0.5), 3)
  t.equal(
    percentile(
      Array.from({ length: 100 }, (_, i) => i + 1),
      0.95,
    ),
    95,
  )
})

t.test('the labelled corpus is large enough and deterministic', async (t) => {
  const corpus = buildCorpus()
  const counted = corpus.filter((p) => !p.slug.startsWith('test/') && !p.slug.startsWith('archive/'))
  t.ok(counted.length >= 150, `${counted.length} pages`)
  t.ok(counted.filter((p) => p.kind === 'code').length >= 25, 'code pages')
  t.same(buildCorpus(), corpus, 'the generator is seeded')
  t.equal(new Set(corpus.map((p) => p.slug)).size, corpus.length, 'unique slugs')
  t.ok(QUERIES.length >= 60, `${QUERIES.length} queries`)
  t.ok(QUERIES.filter((q) => q.kind === 'paraphrase').length * 3 >= QUERIES.length, 'a third are paraphrases')
  const slugs = new Set(corpus.map((p) => p.slug))
  t.same(
    QUERIES.flatMap((q) => q.relevant).filter((s) => !slugs.has(s)),
    [],
    'every expected slug exists',
  )
})
