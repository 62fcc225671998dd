/**
 * Measures page-level fusions: on the tuning half of every labelled set (never the held-out
 * half), reads the keyword (BM25) and vector candidate lists once per query, then scores every
 * fusion setting offline and prints the best by the smallest margin of hybrid over
 * max(keyword, vector) across sets. Hybrid search now fuses per chunk (fuseChunks in src/search/hybrid.ts),
 * chosen with bench/retrieval/vector-windows.ts, which measures both kinds side by side.
 *
 *   node dist/bench/retrieval/tune-fusion.js [pglite|postgres] [--beir DIR]... [--embed-cache FILE] [--lists FILE]
 *
 * --lists FILE keeps the collected candidate lists, so a second run only re-scores the grid.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { keywordBound, prepareQuery } from '../../src/search/bm25.js'
import { withSearchTransaction } from '../../src/search/sql.js'
import { keywordRows } from '../../src/search/keyword.js'
import { planSearch } from '../../src/search/options.js'
import { mapRows } from '../../src/search/deps.js'
import { fuseHybrid, type FusionSettings } from './page-fusion.js'
import { vectorSearch, type SearchDeps, type SearchResult } from '../../src/search/index.js'
import { importPage } from '../../src/pages/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster } from '../lib/engines.js'
import { builtinDataset, loadBeirDataset, type Dataset } from './datasets.js'
import { cachingEmbedder } from './embed-cache.js'
import { gradedNdcgAtK, mean } from './metrics.js'

interface Lists {
  grades: Map<string, number>
  bound: number
  keyword: Array<SearchResult & { coverage: number }>
  /** Chunks sharing two of the query's words (any one when none do). */
  keywordTwo: Array<SearchResult & { coverage: number }>
  vector: SearchResult[]
}

const DEPTH = 100

async function collect(dataset: Dataset, engine: 'pglite' | 'postgres', embedder: ReturnType<typeof cachingEmbedder>): Promise<Lists[]> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    for (const doc of dataset.docs) await importPage(db, { slug: doc.slug, kind: doc.kind, content: doc.content, ...(doc.path ? { path: doc.path } : {}) }, { embedder })
    const context: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    const idOf = new Map(dataset.docs.map((d) => [d.slug, d.id]))
    const out: Lists[] = []
    for (const q of dataset.queries.filter((x) => x.half === 'tune')) {
      const rename = <R extends SearchResult>(r: R): R => ({ ...r, slug: idOf.get(r.slug) ?? r.slug })
      const prepared = await withSearchTransaction(db, (tx) => prepareQuery(tx, q.text, 'any'))
      out.push({
        grades: q.grades,
        bound: keywordBound(prepared),
        keyword: (await withSearchTransaction(db, (tx) => keywordRows(tx, planSearch({ limit: DEPTH }, context.settings), { query: q.text, match: 'any', perPage: true, withCoverage: true })))
          .map((r) => ({ ...mapRows([r], q.text, planSearch({ limit: DEPTH }, context.settings), context)[0]!, coverage: r.coverage ?? 1 }))
          .map(rename),
        keywordTwo: await (async () => {
          const plan = planSearch({ limit: DEPTH }, context.settings)
          const two = await withSearchTransaction(db, (tx) => keywordRows(tx, plan, { query: q.text, match: 'two', perPage: true, withCoverage: true }))
          const rows = two.length > 0 ? two : await withSearchTransaction(db, (tx) => keywordRows(tx, plan, { query: q.text, match: 'any', perPage: true, withCoverage: true }))
          return rows.map((r) => ({ ...mapRows([r], q.text, plan, context)[0]!, coverage: r.coverage ?? 1 })).map(rename)
        })(),
        vector: (await vectorSearch(context, q.text, { limit: DEPTH })).results.map(rename),
      })
    }
    return out
  } finally {
    await close()
  }
}

function settingsGrid(): FusionSettings[] {
  const grid: FusionSettings[] = []
  for (const depth of [10, 20, 30, 50, 100]) {
    for (const coverageExponent of [0, 1, 2, 3]) {
      for (const k of [5, 10, 20, 40, 60]) for (const keywordWeight of [0.5, 0.75, 1, 1.25, 1.5, 2]) grid.push({ method: 'rrf', depth, k, keywordWeight, coverageExponent })
    }
    for (let keywordWeight = 0.3; keywordWeight < 0.951; keywordWeight += 0.05) {
      for (const norm of ['max', 'minmax', 'bound'] as const) {
        for (const vectorNorm of ['max', 'minmax', 'raw'] as const) {
          for (const coverageExponent of [0, 1, 2]) grid.push({ method: 'convex', depth, keywordWeight: Number(keywordWeight.toFixed(2)), norm, vectorNorm, k: 0, coverageExponent })
        }
      }
    }
  }
  return grid
}

const ndcgOf = (ranked: SearchResult[], grades: Map<string, number>): number =>
  gradedNdcgAtK(
    ranked.slice(0, 10).map((r) => r.slug),
    grades,
    10,
  )

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const [engine] = enginesFromArgs(args.includes('pglite') || args.includes('postgres') ? args : ['pglite'])
  const cacheAt = args.indexOf('--embed-cache')
  const embedder = cachingEmbedder(createEmbeddingProvider({ provider: 'local' }), cacheAt >= 0 ? (args[cacheAt + 1] ?? null) : null)
  const beirDirs = args.flatMap((a, i) => (a === '--beir' && args[i + 1] ? [args[i + 1]!] : []))
  const datasets = [builtinDataset(), loadBeirDataset(join(packageRoot(), 'bench', 'retrieval', 'readme-set')), ...beirDirs.map((d) => loadBeirDataset(d))]
  const listsAt = args.indexOf('--lists')
  const listsFile = listsAt >= 0 ? (args[listsAt + 1] ?? null) : null
  let perSet: Array<{ name: string; lists: Lists[] }> = []
  if (listsFile && existsSync(listsFile)) {
    perSet = (JSON.parse(readFileSync(listsFile, 'utf8')) as Array<{ name: string; lists: Array<Omit<Lists, 'grades'> & { grades: Array<[string, number]> }> }>).map((s) => ({
      name: s.name,
      lists: s.lists.map((l) => ({ ...l, grades: new Map(l.grades) })),
    }))
  } else {
    try {
      for (const dataset of datasets) perSet.push({ name: dataset.name, lists: await collect(dataset, engine!, embedder) })
    } finally {
      embedder.save()
      stopBenchCluster()
    }
    if (listsFile) writeFileSync(listsFile, JSON.stringify(perSet.map((s) => ({ name: s.name, lists: s.lists.map((l) => ({ ...l, grades: [...l.grades] })) }))))
  }
  const singles = perSet.map(({ name, lists }) => ({
    name,
    keyword: mean(lists.map((l) => ndcgOf(l.keyword, l.grades))),
    vector: mean(lists.map((l) => ndcgOf(l.vector, l.grades))),
  }))
  for (const s of singles) process.stdout.write(`${s.name}: keyword ${s.keyword.toFixed(3)} vector ${s.vector.toFixed(3)}\n`)
  const rows = settingsGrid()
    .flatMap((base) => [false, true].map((two) => ({ ...base, two })))
    .map(({ two, ...settings }) => {
      const bySet = perSet.map(({ lists }, i) => {
        const hybrid = mean(
          lists.map((l) =>
            ndcgOf(
              fuseHybrid(two ? l.keywordTwo : l.keyword, l.vector, { ...settings, keywordBound: l.bound }).map((f) => f.item),
              l.grades,
            ),
          ),
        )
        return { hybrid, margin: hybrid - Math.max(singles[i]!.keyword, singles[i]!.vector) }
      })
      return { settings: { ...settings, keywordList: two ? 'two' : 'any' }, bySet, worst: Math.min(...bySet.map((b) => b.margin)), average: mean(bySet.map((b) => b.hybrid)) }
    })
  rows.sort((a, b) => b.worst - a.worst || b.average - a.average)
  for (const row of rows.slice(0, 25)) {
    process.stdout.write(`${JSON.stringify(row.settings)} worst margin ${row.worst.toFixed(3)} mean ${row.average.toFixed(3)} | ${row.bySet.map((b) => b.hybrid.toFixed(3)).join(' ')}\n`)
  }
}

await main()
