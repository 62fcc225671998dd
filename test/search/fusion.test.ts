// test-runner: shares a process
import t from 'tap'
import { fuseHybrid, reciprocalRankFusion, RRF_K } from '../../bench/retrieval/page-fusion.js'

const fuse = (lists: Array<{ name: string; items: string[]; weight?: number }>) => reciprocalRankFusion(lists, (s) => s)

t.test('reciprocal rank fusion', async (t) => {
  t.equal(RRF_K, 60)
  t.same(fuse([]), [], 'no lists')
  t.same(
    fuse([
      { name: 'a', items: [] },
      { name: 'b', items: [] },
    ]),
    [],
    'empty lists',
  )

  const both = fuse([
    { name: 'keyword', items: ['x', 'y', 'z'] },
    { name: 'vector', items: ['y', 'w', 'x'] },
  ])
  t.same(
    both.map((f) => f.key),
    ['y', 'x', 'w', 'z'],
    'documents in both lists rise; ties break on best single rank',
  )
  t.same(both[0]!.ranks, { keyword: 2, vector: 1 })
  const expectedY = (1 / (RRF_K + 2) + 1 / (RRF_K + 1)) / (2 / (RRF_K + 1))
  t.ok(Math.abs(both[0]!.score - expectedY) < 1e-12, 'score = Σ 1/(k+rank), normalized by the best achievable')

  const top = fuse([
    { name: 'a', items: ['p', 'q'] },
    { name: 'b', items: ['p'] },
  ])
  t.equal(top[0]!.score, 1, 'first in every list scores exactly 1')

  const single = fuse([
    { name: 'a', items: ['p', 'q', 'r'] },
    { name: 'b', items: [] },
  ])
  t.same(
    single.map((f) => f.key),
    ['p', 'q', 'r'],
    'one empty list keeps the other order',
  )

  const weighted = fuse([
    { name: 'a', items: ['p', 'q'], weight: 1 },
    { name: 'b', items: ['q', 'p'], weight: 3 },
  ])
  t.same(
    weighted.map((f) => f.key),
    ['q', 'p'],
    'weights tilt the fusion',
  )

  const byItem = reciprocalRankFusion(
    [
      { name: 'keyword', items: ['noise', 'target'], itemWeight: (s: string) => (s === 'noise' ? 0.04 : 1) },
      { name: 'vector', items: ['target2', 'target'] },
    ],
    (s) => s,
  )
  t.same(
    byItem.map((f) => f.key),
    ['target', 'target2', 'noise'],
    'a low item weight (a weak keyword match) barely counts',
  )
  const clamped = reciprocalRankFusion([{ name: 'a', items: ['p'], itemWeight: () => 5 }], (s: string) => s)
  t.equal(clamped[0]!.score, 1, 'item weights are clamped to [0, 1]')

  const dup = fuse([{ name: 'a', items: ['p', 'p', 'q'] }])
  t.same(
    dup.map((f) => [f.key, f.ranks]),
    [
      ['p', { a: 1 }],
      ['q', { a: 3 }],
    ],
    'a repeated key counts once, at its best rank',
  )

  const tie = fuse([
    { name: 'a', items: ['m'] },
    { name: 'b', items: ['n'] },
  ])
  t.same(
    tie.map((f) => f.key),
    ['m', 'n'],
    'exact tie: earlier list first',
  )
})

t.test('the fused item is the one from the list that ranks it best', async (t) => {
  const lists = [
    {
      name: 'keyword',
      items: [
        { id: 'a', from: 'keyword' },
        { id: 'b', from: 'keyword' },
      ],
    },
    {
      name: 'vector',
      items: [
        { id: 'b', from: 'vector' },
        { id: 'a', from: 'vector' },
      ],
    },
  ]
  const fused = reciprocalRankFusion(lists, (i) => i.id)
  t.same(
    fused.map((f) => [f.key, f.item.from]),
    [
      ['a', 'keyword'],
      ['b', 'vector'],
    ],
  )
})

t.test('hybrid convex fusion: keyword scores on [0, 1], cosine as it is, one entry per page', async (t) => {
  const page = (slug: string, score: number): { slug: string; source_id: string; score: number } => ({ slug, source_id: 'default', score })
  const keyword = [page('both', 9), page('words', 5), page('weak', 1)]
  const vector = [page('meaning', 0.9), page('both', 0.8)]
  const fused = fuseHybrid(keyword, vector, { method: 'convex', depth: 30, keywordWeight: 0.75, norm: 'minmax', vectorNorm: 'raw', k: 0 })
  const score = new Map(fused.map((f) => [f.item.slug, f.score]))
  t.same(
    fused.map((f) => f.item.slug),
    ['both', 'words', 'meaning', 'weak'],
  )
  t.ok(Math.abs(score.get('both')! - (0.75 + 0.25 * 0.8)) < 1e-12)
  t.ok(Math.abs(score.get('words')! - 0.75 * 0.5) < 1e-12, 'min-max within the keyword list')
  t.ok(Math.abs(score.get('meaning')! - 0.25 * 0.9) < 1e-12, 'absent from the keyword list: vector part only')
  t.equal(score.get('weak'), 0, 'the weakest keyword candidate gets 0 from its list')
  const shallow = fuseHybrid(keyword, vector, { method: 'convex', depth: 1, keywordWeight: 0.75, norm: 'minmax', vectorNorm: 'raw', k: 0 })
  t.same(
    shallow.map((f) => f.item.slug),
    ['both', 'meaning'],
    'depth cuts each list',
  )
  const rrf = fuseHybrid(keyword, vector, { method: 'rrf', depth: 30, keywordWeight: 1, k: 60 })
  t.equal(rrf[0]!.item.slug, 'both')
  t.equal(rrf[0]!.score, (1 / 61 + 1 / 62) / (2 / 61))
})
