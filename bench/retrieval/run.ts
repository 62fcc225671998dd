/**
 * bench/retrieval: nDCG@10, recall@10 and MRR@10 of keyword, vector (local model) and hybrid
 * search, next to an Okapi BM25 reference computed by the harness on the same documents
 * (bm25-reference.ts), on every labelled set: the project's own corpus, the README set in
 * bench/retrieval/readme-set, and any further BEIR-format folder given with --beir. Each set is
 * reported for its tuning half, its held-out half and all queries. Fails (exit 1) when on any set
 * keyword nDCG@10 < BM25 − 0.01, keyword recall@10 < BM25 − 0.02 or hybrid nDCG@10 <
 * max(keyword, vector) + 0.03, or when a paraphrase query of the project's corpus shares a word
 * with its target.
 *
 *   node dist/bench/retrieval/run.js [pglite] [postgres] [--beir DIR]... [--only NAME] [--embed-cache FILE] [--per-query FILE] [--json]
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Database } from '../../src/db/types.js'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { importPage } from '../../src/pages/index.js'
import { query, search, vectorSearch, type SearchDeps } from '../../src/search/index.js'
import { queryTerms } from '../../src/search/rows.js'
import { packageRoot } from '../../src/util/package-root.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { buildBm25Index } from './bm25-reference.js'
import { builtinDataset, loadBeirDataset, type Dataset, type DatasetQuery } from './datasets.js'
import { cachingEmbedder, type CachingEmbedder } from './embed-cache.js'
import { gradedNdcgAtK, mean, mrrAtK, recallAtK } from './metrics.js'
import { QUERIES } from './queries.js'

export const MODES = ['keyword', 'vector', 'hybrid', 'bm25'] as const
export type Mode = (typeof MODES)[number]
const HALVES = ['tune', 'held-out', 'all'] as const
type Half = (typeof HALVES)[number]

export interface Scores {
  ndcg10: number
  recall10: number
  mrr10: number
}

export interface DatasetReport {
  engine: BenchEngine
  dataset: string
  docs: number
  chunks: number
  queries: number
  scores: Record<Half, Record<Mode, Scores>>
  failures: string[]
  /** Each query's top 10 (document ids) per mode, for --per-query. */
  rankings: Array<{ id: string; text: string; half: DatasetQuery['half']; ranked: Record<Mode, string[]>; ndcg10: Record<Mode, number> }>
}

async function loadDocs(db: Database, dataset: Dataset, embedder: CachingEmbedder): Promise<number> {
  let chunks = 0
  for (const doc of dataset.docs) {
    const result = await importPage(db, { slug: doc.slug, kind: doc.kind, content: doc.content, ...(doc.path ? { path: doc.path } : {}) }, { embedder })
    if (result.embedError) throw new Error(`embedding ${doc.slug} failed: ${result.embedError.message}`)
    chunks += result.chunks
  }
  return chunks
}

/** Paraphrase queries of the project's corpus must share no lexeme with their targets. */
async function paraphraseViolations(db: Database, dataset: Dataset): Promise<string[]> {
  const bySlug = new Map(dataset.docs.map((d) => [d.slug, d]))
  const violations: string[] = []
  for (const labelled of QUERIES.filter((q) => q.kind === 'paraphrase')) {
    for (const slug of labelled.relevant) {
      const { rows } = await db.query<{ shared: string[] | null }>(
        `SELECT array(SELECT unnest(tsvector_to_array(to_tsvector('english', $2)))
                      INTERSECT SELECT unnest(tsvector_to_array(to_tsvector('english', $1)))) AS shared`,
        [`${slug} ${bySlug.get(slug)?.content ?? ''}`, labelled.query],
      )
      const shared = rows[0]?.shared ?? []
      if (shared.length > 0) violations.push(`"${labelled.query}" shares ${shared.join(', ')} with ${slug}`)
    }
    if (queryTerms(labelled.query).length === 0) violations.push(`"${labelled.query}" has no words`)
  }
  return violations
}

/** `--graph-boost`: every search runs with graph-aware ranking (src/search/graph-boost.ts). */
const GRAPH_BOOST = process.argv.includes('--graph-boost')

async function rankedSlugs(context: SearchDeps, mode: Exclude<Mode, 'bm25'>, text: string): Promise<string[]> {
  const options = { limit: 10, graphBoost: GRAPH_BOOST }
  const response = mode === 'keyword' ? await search(context, text, options) : mode === 'vector' ? await vectorSearch(context, text, options) : await query(context, text, options)
  if (mode === 'hybrid' && response.keyword_only) throw new Error(`hybrid ran keyword-only: ${response.notice}`)
  return response.results.map((r) => r.slug)
}

function scoresOf(ranked: readonly string[], q: DatasetQuery): Scores {
  const relevant = new Set([...q.grades].filter(([, g]) => g > 0).map(([id]) => id))
  return { ndcg10: gradedNdcgAtK(ranked, q.grades, 10), recall10: recallAtK(ranked, relevant, 10), mrr10: mrrAtK(ranked, relevant, 10) }
}

function average(rows: readonly Scores[]): Scores {
  return { ndcg10: mean(rows.map((r) => r.ndcg10)), recall10: mean(rows.map((r) => r.recall10)), mrr10: mean(rows.map((r) => r.mrr10)) }
}

/** The acceptance rule, applied to one set's scores over all its queries. */
export function failuresOf(s: Record<Mode, Scores>): string[] {
  const failures: string[] = []
  if (s.keyword.ndcg10 < s.bm25.ndcg10 - 0.01) failures.push(`keyword nDCG@10 ${s.keyword.ndcg10.toFixed(3)} < BM25 ${s.bm25.ndcg10.toFixed(3)} − 0.01`)
  if (s.keyword.recall10 < s.bm25.recall10 - 0.02) failures.push(`keyword recall@10 ${s.keyword.recall10.toFixed(3)} < BM25 ${s.bm25.recall10.toFixed(3)} − 0.02`)
  const best = Math.max(s.keyword.ndcg10, s.vector.ndcg10)
  if (s.hybrid.ndcg10 < best + 0.03) failures.push(`hybrid nDCG@10 ${s.hybrid.ndcg10.toFixed(3)} < max(keyword, vector) ${best.toFixed(3)} + 0.03`)
  return failures
}

export async function runDataset(engine: BenchEngine, dataset: Dataset, embedder: CachingEmbedder): Promise<DatasetReport> {
  const { db, close } = await openBenchDatabase(engine)
  try {
    const chunks = await loadDocs(db, dataset, embedder)
    const context: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    const idOfSlug = new Map(dataset.docs.map((d) => [d.slug, d.id]))
    const reference = await buildBm25Index(db, dataset.docs)
    const perQuery: Array<{ half: DatasetQuery['half']; byMode: Record<Mode, Scores> }> = []
    const rankings: DatasetReport['rankings'] = []
    for (const q of dataset.queries) {
      const byMode = {} as Record<Mode, Scores>
      const rankedByMode = {} as Record<Mode, string[]>
      for (const mode of MODES) {
        const ranked = mode === 'bm25' ? await reference.rank(q.text, 10) : (await rankedSlugs(context, mode, q.text)).map((s) => idOfSlug.get(s) ?? s)
        byMode[mode] = scoresOf(ranked, q)
        rankedByMode[mode] = ranked
      }
      perQuery.push({ half: q.half, byMode })
      rankings.push({ id: q.id, text: q.text, half: q.half, ranked: rankedByMode, ndcg10: Object.fromEntries(MODES.map((m) => [m, byMode[m].ndcg10])) as Record<Mode, number> })
    }
    const scores = {} as DatasetReport['scores']
    for (const half of HALVES) {
      const rows = perQuery.filter((r) => half === 'all' || r.half === half)
      scores[half] = Object.fromEntries(MODES.map((m) => [m, average(rows.map((r) => r.byMode[m]))])) as Record<Mode, Scores>
    }
    const failures = failuresOf(scores.all)
    if (dataset.name === 'brain') failures.push(...(await paraphraseViolations(db, dataset)).map((v) => `paraphrase check: ${v}`))
    return { engine, dataset: dataset.name, docs: dataset.docs.length, chunks, queries: dataset.queries.length, scores, failures, rankings }
  } finally {
    await close()
  }
}

function table(reports: readonly DatasetReport[]): string {
  const f = (n: number): string => n.toFixed(3)
  const lines = ['| engine | set | half | queries | mode | nDCG@10 | recall@10 | MRR@10 |', '|---|---|---|---|---|---|---|---|']
  for (const r of reports) {
    for (const half of HALVES) {
      const count = half === 'all' ? r.queries : Math.ceil(half === 'tune' ? r.queries / 2 : (r.queries - 1) / 2)
      for (const mode of MODES) {
        const s = r.scores[half][mode]
        lines.push(`| ${r.engine} | ${r.dataset} (${r.docs} docs, ${r.chunks} chunks) | ${half} | ${count} | ${mode} | ${f(s.ndcg10)} | ${f(s.recall10)} | ${f(s.mrr10)} |`)
      }
    }
  }
  return lines.join('\n')
}

function datasetsFromArgs(args: readonly string[]): Dataset[] {
  const beirDirs = args.flatMap((a, i) => (a === '--beir' && args[i + 1] ? [args[i + 1]!] : []))
  const only = args.flatMap((a, i) => (a === '--only' && args[i + 1] ? [args[i + 1]!] : []))
  const all = [builtinDataset(), loadBeirDataset(join(packageRoot(), 'bench', 'retrieval', 'readme-set')), ...beirDirs.map((d) => loadBeirDataset(d))]
  return only.length > 0 ? all.filter((d) => only.includes(d.name)) : all
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (args.includes('--multilingual')) {
    await (await import('./multilingual.js')).runMultilingual(args.filter((a) => a !== '--multilingual'))
    process.exit(0)
  }
  const engines = enginesFromArgs(args.includes('pglite') || args.includes('postgres') ? args : ['pglite'])
  const cacheAt = args.indexOf('--embed-cache')
  const embedder = cachingEmbedder(createEmbeddingProvider({ provider: 'local' }), cacheAt >= 0 ? (args[cacheAt + 1] ?? null) : null)
  const datasets = datasetsFromArgs(args)
  const reports: DatasetReport[] = []
  try {
    for (const engine of engines) for (const dataset of datasets) reports.push(await runDataset(engine, dataset, embedder))
  } finally {
    embedder.save()
    stopBenchCluster()
  }
  const perQueryAt = args.indexOf('--per-query')
  if (perQueryAt >= 0 && args[perQueryAt + 1]) writeFileSync(args[perQueryAt + 1]!, JSON.stringify(reports.map((r) => ({ engine: r.engine, dataset: r.dataset, rankings: r.rankings }))))
  const summary = reports.map(({ rankings: _rankings, ...rest }) => rest)
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(summary, null, 2)}\n` : `${table(reports)}\n`)
  for (const r of reports) for (const failure of r.failures) process.stderr.write(`${r.engine} ${r.dataset}: ${failure}\n`)
  process.exit(reports.some((r) => r.failures.length > 0) ? 1 : 0)
}

if (process.argv[1]?.endsWith('/retrieval/run.js')) await main()
