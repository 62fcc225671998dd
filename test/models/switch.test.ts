import t from 'tap'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig, writeConfigValue } from '../../src/config/index.js'
import type { Database } from '../../src/db/types.js'
import { parseVectorLiteral } from '../../src/embedding/index.js'
import {
  ACTIVE_MODEL_KEY,
  activeEmbeddingProvider,
  activeModelId,
  addModel,
  beginModelSwitch,
  cancelModelSwitch,
  embeddingProviderOfModel,
  nextModelId,
  RERANK_BUDGET_KEY,
  RERANKER_KEY,
  runModelSwitch,
} from '../../src/models/index.js'
import { importPage } from '../../src/pages/index.js'
import { query, searchDeps } from '../../src/search/index.js'
import { engineTest } from '../helpers/engines.js'
import { WORDS, writeTinyEmbedder, writeTinyReranker } from './tiny-models.js'

type Tap = Parameters<Parameters<typeof engineTest>[2]>[0]

async function brainHome(t: Tap): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'brain-switch-'))
  t.teardown(() => rm(home, { recursive: true, force: true }))
  return home
}

async function modelTags(db: Database): Promise<Record<string, number>> {
  const { rows } = await db.query<{ model: string | null; n: number }>('SELECT model, count(*)::int AS n FROM content_chunks GROUP BY model ORDER BY model')
  return Object.fromEntries(rows.map((r) => [r.model ?? 'none', Number(r.n)]))
}

async function staged(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM chunk_embeddings_next')
  return Number(rows[0]?.n ?? 0)
}

/** Sentences of vocabulary words, different for each page. */
function sentence(i: number): string {
  const words = WORDS.filter((w) => w !== ':')
  return Array.from({ length: 6 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ')
}

engineTest(t, 'switching models re-embeds beside the old vectors, which search uses until the switch is complete', async (t, { db }) => {
  const home = await brainHome(t)
  const config = loadConfig({ env: { BRAIN_HOME: home } })
  await addModel(home, (await writeTinyEmbedder(join(home, 'src-old'), { seed: 1 })).dir, { id: 'old' })
  await addModel(home, (await writeTinyEmbedder(join(home, 'src-new'), { seed: 2, prompts: { query: 'query: ', passage: 'passage: ' } })).dir, { id: 'new' })
  await writeConfigValue(db, ACTIVE_MODEL_KEY, 'old')
  const oldProvider = await activeEmbeddingProvider(db, config)
  t.equal(oldProvider.model, 'onnx:old', 'the active model comes from the brain, not from the process')
  for (let i = 0; i < 40; i++) await importPage(db, { slug: `notes/n${i}`, kind: 'markdown', content: sentence(i) }, { embedder: oldProvider })
  t.same(await modelTags(db), { 'onnx:old': 40 })
  const before = await query(searchDeps(db, config), 'zebra lion savanna')
  t.equal(before.model, 'onnx:old')
  t.same(before.ran, ['keyword', 'vector'])

  // A switch stopped after its first batch: nothing search uses has changed.
  await beginModelSwitch(db, 'new')
  const newProvider = await embeddingProviderOfModel(home, 'new', config.embedding)
  const stop = new AbortController()
  await t.rejects(runModelSwitch(db, 'new', newProvider, { signal: stop.signal, onProgress: () => stop.abort(new Error('stopped')) }))
  t.same(await modelTags(db), { 'onnx:old': 40 }, 'the old vectors are all still there')
  const firstBatch = await staged(db)
  t.ok(firstBatch > 0 && firstBatch < 40, `the new vectors of the first batch are kept (${firstBatch})`)
  t.equal(await activeModelId(db), 'old')
  t.equal(await nextModelId(db), 'new')
  const during = await query(searchDeps(db, config), 'zebra lion savanna')
  t.equal(during.model, 'onnx:old', 'search keeps the old model during the switch')
  t.same(
    during.results.map((r) => r.slug),
    before.results.map((r) => r.slug),
    'with the same results',
  )

  // Written while the switch runs, with the old model: the switch catches it up.
  await importPage(db, { slug: 'notes/late', kind: 'markdown', content: 'zebra river mountain' }, { embedder: oldProvider })
  const progress: number[] = []
  const result = await runModelSwitch(db, 'new', newProvider, { onProgress: (p) => progress.push(p.done) })
  t.equal(result.from, 'old')
  t.equal(result.to, 'new')
  t.equal(result.embedded, 41 - firstBatch, 'the resumed switch embeds only what it did not have')
  t.ok(progress.length > 0, 'with progress')
  t.same(await modelTags(db), { 'onnx:new': 41 }, 'every chunk now carries the new model')
  t.equal(await staged(db), 0, 'the staging vectors are gone')
  t.equal(await activeModelId(db), 'new')
  t.equal(await nextModelId(db), null)
  const after = await query(searchDeps(db, config), 'zebra lion savanna')
  t.equal(after.model, 'onnx:new', 'search uses only the new model now')
  t.same(after.ran, ['keyword', 'vector'])

  const { rows } = await db.query<{ chunk_text: string; embedding: string }>(
    "SELECT c.chunk_text, c.embedding::text AS embedding FROM content_chunks c JOIN pages p ON p.id = c.page_id WHERE p.slug = 'notes/late'",
  )
  const [expected] = await newProvider.embed([rows[0]!.chunk_text])
  const stored = parseVectorLiteral(rows[0]!.embedding)
  t.ok(Math.max(...expected!.map((v, i) => Math.abs(v - stored[i]!))) < 1e-5, 'a stored vector is the passage embedding of its chunk')

  // This machine loses the model the brain uses: writes keep their pages, search its keywords.
  await rm(join(home, 'models', 'new'), { recursive: true })
  const unavailable = await activeEmbeddingProvider(db, config)
  const written = await importPage(db, { slug: 'notes/offline', kind: 'markdown', content: 'zebra basil' }, { embedder: unavailable })
  t.equal(written.embedError?.code, 'model_unavailable', 'the page is written, its chunks left to embed later')
  t.equal((await db.query("SELECT count(*)::int AS n FROM pages WHERE slug = 'notes/offline'")).rows[0]?.n, 1)
  const keywordOnly = await query(searchDeps(db, config), 'zebra basil')
  t.equal(keywordOnly.keyword_only, 'embedding_failed')
  t.match(keywordOnly.notice, /model_unavailable/)
  t.ok(
    keywordOnly.results.some((r) => r.slug === 'notes/offline'),
    'found by its words',
  )

  await beginModelSwitch(db, 'old')
  await t.rejects(runModelSwitch(db, 'use-lite', newProvider), { code: 'model_switch_superseded' }, 'a newer switch stops an older job')
  t.equal(await cancelModelSwitch(db), 'old')
  t.equal(await nextModelId(db), null)
  t.equal(await activeModelId(db), 'new', 'a cancelled switch leaves the active model')
})

engineTest(t, 'the re-ranker orders the first results of query, and falls back to their order past its budget', async (t, { db }) => {
  const home = await brainHome(t)
  const config = loadConfig({ env: { BRAIN_HOME: home } })
  const pages = {
    'notes/a': 'zebra lion',
    'notes/b': 'lion lion lion zebra giraffe savanna',
    'notes/c': 'zebra zebra zebra lion',
    'notes/d': 'lion river',
  }
  for (const [slug, content] of Object.entries(pages)) await importPage(db, { slug, kind: 'markdown', content }, { embedder: null })
  const ctx = searchDeps(db, config)
  await t.rejects(query(ctx, 'zebra lion', { rerank: true }), { code: 'reranker_not_configured' })
  const plain = await query(ctx, 'zebra lion')
  t.equal(plain.reranker, undefined, 'no re-ranker configured: none runs')

  const reranker = await writeTinyReranker(join(home, 'ce'), { favourite: 'zebra' })
  await addModel(home, reranker.dir, { id: 'ce', kind: 'reranker' })
  await writeConfigValue(db, RERANKER_KEY, 'ce')
  const reranked = await query(ctx, 'zebra lion')
  t.equal(reranked.reranker, 'ce')
  const { rows } = await db.query<{ slug: string; chunk_text: string }>('SELECT p.slug, c.chunk_text FROM content_chunks c JOIN pages p ON p.id = c.page_id')
  const text = new Map(rows.map((r) => [r.slug, r.chunk_text]))
  const expected = plain.results.map((r) => r.slug).sort((a, b) => reranker.score('zebra lion', text.get(b)!) - reranker.score('zebra lion', text.get(a)!))
  t.same(
    reranked.results.map((r) => r.slug),
    expected,
    'ordered by the cross-encoder',
  )
  t.equal(reranked.results[0]!.slug, 'notes/c', 'the page densest in the favourite word first')
  t.ok(
    reranked.results.every((r) => r.score > 0 && r.score < 1),
    'scores are the re-ranker’s, 0–1',
  )
  const off = await query(ctx, 'zebra lion', { rerank: false })
  t.same(
    off.results.map((r) => r.slug),
    plain.results.map((r) => r.slug),
    'rerank false keeps the fused order',
  )
  const second = await query(ctx, 'zebra lion', { limit: 1, offset: 1 })
  t.same(
    second.results.map((r) => r.slug),
    expected.slice(1, 2),
    'offset and limit cut the re-ranked list',
  )

  const slow = await writeTinyReranker(join(home, 'slow'), { favourite: 'zebra', slowness: 150 })
  await addModel(home, slow.dir, { id: 'slow', kind: 'reranker' })
  await writeConfigValue(db, RERANKER_KEY, 'slow')
  await writeConfigValue(db, RERANK_BUDGET_KEY, '1')
  const late = await query(ctx, 'zebra lion')
  t.equal(late.reranker, undefined)
  t.match(late.notice, /Not re-ranked: slow took longer than 1 ms; results are in keyword order\./, 'says so in notice')
  t.same(
    late.results.map((r) => r.slug),
    plain.results.map((r) => r.slug),
    'and keeps the un-reranked order',
  )
})
