// test-runner: shares a process
import t, { type Test } from 'tap'
import { buildCorpus } from '../../bench/retrieval/corpus.js'
import { QUERIES } from '../../bench/retrieval/queries.js'
import type { EmbeddingProvider } from '../../src/embedding/index.js'
import { importPage } from '../../src/pages/index.js'
import { query, search, searchKeywordChunks, vectorSearch, type SearchDeps, type SearchResponse } from '../../src/search/index.js'
import { ENGINES, openTestDatabase, type EngineName } from '../helpers/engines.js'
import { trigramEmbedder } from './helpers.js'

type Outcome = Record<string, unknown>

async function outcomes(engine: EngineName, embedder: EmbeddingProvider, t: Test): Promise<Map<string, Outcome>> {
  const test = await openTestDatabase(engine)
  t.teardown(test.cleanup)
  for (const page of buildCorpus()) {
    await importPage(test.db, { slug: page.slug, kind: page.kind, content: page.content, path: page.path }, { embedder })
  }
  const now = new Date('2025-01-01T00:00:00Z')
  const context: SearchDeps = { db: test.db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null }, now: () => now }
  const out = new Map<string, Outcome>()
  const strip = (response: SearchResponse): Outcome => ({ ...response, results: response.results.map(({ updated_at: _u, chunk_id: _c, ...rest }) => rest) })
  for (const labelled of QUERIES) {
    out.set(`keyword ${labelled.query}`, strip(await search(context, labelled.query)))
    out.set(`vector ${labelled.query}`, strip(await vectorSearch(context, labelled.query)))
    out.set(`hybrid ${labelled.query}`, strip(await query(context, labelled.query)))
    out.set(`chunks ${labelled.query}`, { results: (await searchKeywordChunks(context, labelled.query, { match: 'any' })).map((r) => [r.slug, r.chunk_index, r.score]) })
  }
  return out
}

/** Splits an outcome into its scores and everything else, so scores can be compared with a tolerance. */
function split(outcome: Outcome): { shape: unknown; scores: number[] } {
  const scores: number[] = []
  const walk = (value: unknown, key = ''): unknown => {
    if (key === 'score' && typeof value === 'number') {
      scores.push(value)
      return 'score'
    }
    if (Array.isArray(value)) return value.map((v) => walk(v))
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]))
    return value
  }
  const chunkRows = (outcome.results as unknown[]).every(Array.isArray)
  const shape = chunkRows ? (outcome.results as Array<[string, number, number]>).map(([slug, index, score]) => (scores.push(score), [slug, index])) : walk(outcome)
  return { shape, scores }
}

t.test('both engines return the same structure and ranking on the same corpus', async (t) => {
  // A deterministic stand-in model: parity is about the engines, and both must get identical vectors.
  const embedder = trigramEmbedder()
  const [first, second] = [await outcomes(ENGINES[0]!, embedder, t), await outcomes(ENGINES[1]!, embedder, t)]
  t.equal(first.size, QUERIES.length * 4)
  let sameTop = 0
  let nonEmpty = 0
  for (const [key, a] of first) {
    const b = second.get(key)!
    const [sa, sb] = [split(a), split(b)]
    t.same(sb.shape, sa.shape, `${key}: same results, fields and order`)
    // The engines' float arithmetic differs in the last digits (wasm vs native pgvector).
    t.ok(sa.scores.length === sb.scores.length && sa.scores.every((s, i) => Math.abs(s - sb.scores[i]!) < 1e-4), `${key}: same scores`)
    const top = (o: { shape: unknown }) => JSON.stringify(((o.shape as { results?: unknown[] }).results ?? (o.shape as unknown[]))[0])
    if (top(sa) !== undefined) nonEmpty++
    if (top(sa) === top(sb)) sameTop++
  }
  t.ok(nonEmpty > QUERIES.length * 3, `${nonEmpty} non-empty result lists compared`)
  t.equal(sameTop, first.size, 'the same top result everywhere')
})
