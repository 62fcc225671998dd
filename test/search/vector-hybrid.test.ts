// test-runner: shares a process
import t from 'tap'
import { query, search, vectorSearch } from '../../src/search/index.js'
import { hybridCandidates } from '../../src/search/hybrid.js'
import { vectorInnerLimit } from '../../src/search/vector.js'
import { engineTest } from '../helpers/engines.js'
import { bagOfWordsEmbedder, context, failingEmbedder, importAll, slugs, type PageSpec } from './helpers.js'

// "automobile" and "car" share a dimension in the fake model: a paraphrase with no common word.
const aliases = { automobile: 'car', vehicle: 'car', repair: 'fix', mend: 'fix' }

const corpus: PageSpec[] = [
  { slug: 'notes/car-maintenance', content: '# Car maintenance\n\nHow to fix a car: change the oil, check the brakes.' },
  { slug: 'originals/car-essay', content: '# Car maintenance\n\nHow to fix a car: change the oil, check the brakes.' },
  { slug: 'notes/bread', content: '# Bread\n\nKnead the dough, let it rise overnight, bake hot.' },
  { slug: 'notes/garden', content: '# Garden\n\nWater the tomatoes in the morning; mulch against weeds.' },
  { slug: 'notes/keyword-only', content: '# Zanzibar\n\nThe zanzibar protocol for authorization checks.' },
  { slug: 'test/car-fixture', content: '# Car fixture\n\nFix a car fixture.' },
  ...Array.from({ length: 12 }, (_, i) => ({ slug: `notes/filler-${i}`, content: `# Filler ${i}\n\nOil brakes dough tomatoes number ${i}.` })),
]

t.test('inner limits grow with offset', async (t) => {
  t.equal(vectorInnerLimit({ offset: 0, limit: 5 }), 50)
  t.equal(vectorInnerLimit({ offset: 0, limit: 20 }), 100)
  t.equal(vectorInnerLimit({ offset: 40, limit: 20 }), 300)
  t.equal(hybridCandidates({ offset: 0, limit: 10 }), 50)
  t.equal(hybridCandidates({ offset: 30, limit: 10 }), 200)
})

engineTest(t, 'vector search', async (t, { db }) => {
  const embedder = bagOfWordsEmbedder('model-a', aliases)
  await importAll(db, corpus, embedder)
  const ctx = context(db, embedder)

  await t.test('nearest neighbours re-ranked by similarity × source factor, one per page', async (t) => {
    const response = await vectorSearch(ctx, 'how to mend an automobile')
    t.same(response.ran, ['vector'])
    t.equal(response.model, 'model-a')
    const found = slugs(response)
    t.equal(new Set(found).size, found.length)
    t.same(found.slice(0, 2), ['originals/car-essay', 'notes/car-maintenance'], 'paraphrase found; originals/ boosted above the identical note')
    const [essay, note] = response.results
    t.ok(Math.abs(essay!.score - note!.score * 1.5) < 1e-6, 'score = similarity × 1.5')
    t.notOk(
      found.some((s) => s.startsWith('test/')),
      'hard excludes',
    )
    const flat = await vectorSearch(ctx, 'how to mend an automobile', { detail: 'high' })
    t.equal(flat.results[0]!.score, flat.results[1]!.score, 'detail=high: raw similarity')
  })

  await t.test('offset pages through the same ranking', async (t) => {
    const all = slugs(await vectorSearch(ctx, 'oil brakes dough', { limit: 10 }))
    const paged = [...slugs(await vectorSearch(ctx, 'oil brakes dough', { limit: 5 })), ...slugs(await vectorSearch(ctx, 'oil brakes dough', { limit: 5, offset: 5 }))]
    t.same(paged, all)
  })

  await t.test('only vectors of the active model are compared', async (t) => {
    const other = bagOfWordsEmbedder('model-b', aliases)
    await importAll(db, [{ slug: 'notes/other-model', content: '# Other\n\nA car page embedded by another model.' }], other)
    const found = slugs(await vectorSearch(ctx, 'car', { limit: 50 }))
    t.notOk(found.includes('notes/other-model'), 'model-b vectors are invisible to model-a')
    const onlyB = await vectorSearch(context(db, other), 'car', { limit: 50 })
    t.same(slugs(onlyB), ['notes/other-model'])
  })

  await t.test('a chunk that names a model but holds no vector is never returned', async (t) => {
    // Model and vector are written together; a row that lost its vector by hand must still not
    // surface with an empty score.
    await db.query(`UPDATE content_chunks SET embedding = NULL WHERE page_id = (SELECT id FROM pages WHERE slug = 'notes/bread')`)
    const response = await vectorSearch(ctx, 'knead the dough', { limit: 50 })
    t.notOk(slugs(response).includes('notes/bread'), 'the chunk without a vector is left out')
    t.ok(
      response.results.every((r) => Number.isFinite(r.score)),
      'every result has a score',
    )
    const hybrid = await query(ctx, 'knead the dough', { limit: 50 })
    t.ok(
      hybrid.results.every((r) => Number.isFinite(r.score)),
      'hybrid scores stay numbers',
    )
  })
})

engineTest(t, 'hybrid search', async (t, { db }) => {
  const embedder = bagOfWordsEmbedder('model-a', aliases)

  await t.test('with no embeddings at all it says it ran keyword-only', async (t) => {
    await importAll(db, corpus, null)
    const response = await query(context(db, embedder), 'car maintenance')
    t.equal(response.mode, 'hybrid')
    t.same(response.ran, ['keyword'])
    t.equal(response.keyword_only, 'no_embeddings')
    t.match(response.notice, /keyword-only.*brain embed --stale/)
    t.ok(response.results.length > 0)
    t.equal(embedder.calls, 0, 'the query is not embedded when nothing could match it')
  })

  await t.test('with vectors of another model only it also says keyword-only', async (t) => {
    await db.query(`UPDATE content_chunks SET embedding = NULL, model = NULL`)
    const other = bagOfWordsEmbedder('model-b', aliases)
    const { embedAndStore } = await import('../../src/embedding/store/index.js')
    const { rows } = await db.query<{ id: number; chunk_text: string }>('SELECT id, chunk_text FROM content_chunks')
    await embedAndStore(
      db,
      other,
      rows.map((r) => ({ id: r.id, chunkText: r.chunk_text })),
    )
    const response = await query(context(db, embedder), 'car maintenance')
    t.equal(response.keyword_only, 'no_embeddings')
    t.match(response.notice, /model-a/)
  })

  await t.test('a failing query embedding falls back to keywords and says so', async (t) => {
    const response = await query(context(db, failingEmbedder('model-b')), 'car maintenance')
    t.same(response.ran, ['keyword'])
    t.equal(response.keyword_only, 'embedding_failed')
    t.match(response.notice, /could not be embedded/)
    t.ok(response.results.length > 0)
  })

  await t.test('fuses keyword and vector lists', async (t) => {
    const { embedAndStore } = await import('../../src/embedding/store/index.js')
    const { rows } = await db.query<{ id: number; chunk_text: string }>('SELECT id, chunk_text FROM content_chunks')
    await embedAndStore(
      db,
      embedder,
      rows.map((r) => ({ id: r.id, chunkText: r.chunk_text })),
    )
    const ctx = context(db, embedder)

    const paraphrase = await query(ctx, 'mend automobile')
    t.same(paraphrase.ran, ['keyword', 'vector'])
    t.equal(paraphrase.keyword_only, null)
    t.equal(paraphrase.notice, null)
    t.same(slugs(paraphrase).slice(0, 2), ['originals/car-essay', 'notes/car-maintenance'], 'found through the vector side alone')
    t.equal((await search(ctx, 'mend automobile')).results.length, 0, 'keyword search alone finds nothing')

    const exact = await query(ctx, 'zanzibar')
    t.equal(slugs(exact)[0], 'notes/keyword-only', 'found through the keyword side')

    const both = await query(ctx, 'car maintenance')
    const top = both.results[0]!
    const vectorTop = (await vectorSearch(ctx, 'car maintenance')).results.find((r) => r.slug === top.slug)!
    t.ok(Math.abs(top.score - (0.3 + 0.7 * vectorTop.score)) < 1e-9, 'first keyword hit: 0.3 + 0.7 × the cosine of the same chunk')
    t.equal(slugs(both)[0], 'originals/car-essay')
    t.ok(
      both.results.every((r, i, all) => i === 0 || all[i - 1]!.score >= r.score),
      'ordered by fused score',
    )
    t.notOk(
      slugs(both).some((s) => s.startsWith('test/')),
      'hard excludes',
    )

    const all = slugs(await query(ctx, 'oil brakes dough tomatoes', { limit: 10 }))
    const paged = [...slugs(await query(ctx, 'oil brakes dough tomatoes', { limit: 5 })), ...slugs(await query(ctx, 'oil brakes dough tomatoes', { limit: 5, offset: 5 }))]
    t.same(paged, all, 'offset pages through the fused ranking')
    await t.rejects(query(ctx, '  '), { errorClass: 'UsageError', code: 'query_requires_question' })
  })

  await t.test('the nearest pass beside the keyword side gives what the one statement gives', async (t) => {
    // Each engine takes one way; the other is forced here through the capability it reads.
    // Sixty pages near "car" in meaning but without its words push the keyword candidates out
    // of the nearest chunks, so their cosines come from the second statement.
    await importAll(
      db,
      Array.from({ length: 60 }, (_, i) => ({ slug: `notes/auto-${i}`, content: `# Auto ${i}\n\nautomobile vehicle automobile ${i}.` })),
      embedder,
    )
    const asIf = (parallelStatements: boolean): typeof db => Object.assign(Object.create(db) as typeof db, { capabilities: { ...db.capabilities, parallelStatements } })
    for (const [question, options] of [
      ['car maintenance', {}],
      ['car oil brakes', { limit: 20 }],
      ['mend automobile', {}],
      ['oil brakes dough tomatoes', { limit: 4, offset: 3 }],
      ['zanzibar', {}],
    ] as const) {
      const [apart, together] = await Promise.all([true, false].map((parallel) => query(context(asIf(parallel), embedder), question, options)))
      t.same(
        apart!.results.map((r) => [r.slug, r.score]),
        together!.results.map((r) => [r.slug, r.score]),
        question,
      )
      t.ok(apart!.results.length > 0, `${question} finds something`)
    }
  })
})
