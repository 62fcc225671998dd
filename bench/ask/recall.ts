/**
 * bench/ask recall: does the context pack built within 1,000 / 2,000 tokens hold a question's
 * labelled evidence, against plain hybrid `query` hits taken best first while they fit the same
 * budget (each hit's chunk text counted with the pack's tokenizer)? Recall is the share of a
 * query's relevant pages present in what was kept, averaged over the set's queries. Sets: the
 * project's own labelled corpus and the readme set (bench/retrieval), real local embeddings.
 *
 *   node dist/bench/ask/recall.js [pglite] [postgres]
 */
import { join } from 'node:path'
import { buildContextPack, renderItem } from '../../src/answers/index.js'
import { chunksById } from '../../src/answers/gather.js'
import type { Database } from '../../src/db/types.js'
import { countTokens, createEmbeddingProvider, type EmbeddingProvider } from '../../src/embedding/index.js'
import { importPage } from '../../src/pages/index.js'
import { query, type SearchDeps } from '../../src/search/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { builtinDataset, loadBeirDataset, type Dataset } from '../retrieval/datasets.js'
import { cachingEmbedder } from '../retrieval/embed-cache.js'

const BUDGETS = [1000, 2000] as const

async function loadDocs(db: Database, dataset: Dataset, embedder: EmbeddingProvider): Promise<void> {
  for (const doc of dataset.docs) {
    const result = await importPage(db, { slug: doc.slug, kind: doc.kind, content: doc.content, ...(doc.path ? { path: doc.path } : {}) }, { embedder })
    if (result.embedError) throw new Error(`embedding ${doc.slug} failed: ${result.embedError.message}`)
  }
}

/**
 * Hybrid hits best first, each kept while its chunk text still fits the budget. `cited` counts
 * each hit as the pack prints an item, under a numbered line naming its page, so the two pay
 * the same for being citable.
 */
async function queryWithin(search: SearchDeps, text: string, budget: number, cited: boolean): Promise<Set<string>> {
  const response = await query(search, text, { limit: 50 })
  const texts = new Map(
    (
      await chunksById(
        search.db,
        response.results.map((r) => r.chunk_id),
        null,
      )
    ).map((c) => [c.id, c.chunk_text]),
  )
  const slugs = new Set<string>()
  let used = 0
  for (const hit of response.results) {
    const body = texts.get(hit.chunk_id) ?? hit.snippet
    const tokens = countTokens(cited ? renderItem({ n: slugs.size + 1, kind: 'hit', slug: hit.slug, line: hit.start_line, page: null, date: null, text: body }) : body)
    if (used + tokens > budget) continue
    used += tokens
    slugs.add(hit.slug)
  }
  return slugs
}

const recallOf = (kept: Set<string>, relevant: readonly string[]): number => relevant.filter((s) => kept.has(s)).length / Math.max(1, relevant.length)

async function runSet(engine: BenchEngine, dataset: Dataset, embedder: EmbeddingProvider): Promise<void> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    await loadDocs(db, dataset, embedder)
    const search: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    const slugOf = new Map(dataset.docs.map((d) => [d.id, d.slug]))
    for (const budget of BUDGETS) {
      let pack = 0
      let plain = 0
      let cited = 0
      for (const q of dataset.queries) {
        const relevant = [...q.grades].filter(([, g]) => g > 0).map(([id]) => slugOf.get(id) ?? id)
        const built = await buildContextPack({ search }, q.text, { budget })
        pack += recallOf(new Set(built.items.map((i) => i.slug)), relevant)
        plain += recallOf(await queryWithin(search, q.text, budget, false), relevant)
        cited += recallOf(await queryWithin(search, q.text, budget, true), relevant)
      }
      const n = dataset.queries.length
      process.stdout.write(`| ${engine} | ${dataset.name} | ${n} | ${budget} | ${(pack / n).toFixed(3)} | ${(plain / n).toFixed(3)} | ${(cited / n).toFixed(3)} |\n`)
    }
  } finally {
    await close()
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const embedder = cachingEmbedder(createEmbeddingProvider({ provider: 'local' }), null)
  const sets = [builtinDataset(), loadBeirDataset(join(packageRoot(), 'bench', 'retrieval', 'readme-set'))]
  try {
    process.stdout.write('| engine | set | queries | budget | pack recall | query top-k recall | cited query top-k recall |\n')
    for (const engine of enginesFromArgs(args)) for (const set of sets) await runSet(engine, set, embedder)
  } finally {
    stopBenchCluster()
  }
}

await main()
