/**
 * bench/retrieval: nDCG@10 and recall@5 of keyword, vector (local model) and hybrid search over
 * the labelled corpus in corpus.ts with the queries in queries.ts. Fails (exit 1) when hybrid does
 * not beat both single modes on both metrics, or when a paraphrase shares a word with its target.
 *
 *   node dist/bench/retrieval/run.js [pglite] [postgres] [--json]
 */
import type { Database } from '../../src/db/types.js'
import { createEmbeddingProvider, type EmbeddingProvider } from '../../src/embedding/index.js'
import { importPage } from '../../src/pages/index.js'
import { query, search, vectorSearch, type SearchContext } from '../../src/search/index.js'
import { queryTerms } from '../../src/search/snippet.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { buildCorpus, type BenchPage } from './corpus.js'
import { mean, ndcgAtK, recallAtK } from './metrics.js'
import { QUERIES, type LabelledQuery, type QueryKind } from './queries.js'

const MODES = ['keyword', 'vector', 'hybrid'] as const
type Mode = (typeof MODES)[number]

interface Scores {
  ndcg10: number
  recall5: number
}

export interface EngineReport {
  engine: BenchEngine
  pages: number
  chunks: number
  queries: number
  byMode: Record<Mode, Scores & { byKind: Record<QueryKind, Scores> }>
  hybridBeatsBoth: boolean
  paraphraseViolations: string[]
}

async function loadCorpus(db: Database, corpus: readonly BenchPage[], embedder: EmbeddingProvider): Promise<number> {
  let chunks = 0
  for (const page of corpus) {
    const result = await importPage(db, { slug: page.slug, kind: page.kind, content: page.content, path: page.path }, { embedder })
    if (result.embedError) throw new Error(`embedding ${page.slug} failed: ${result.embedError.message}`)
    chunks += result.chunks
  }
  return chunks
}

/** Paraphrase queries must share no lexeme with their targets under the 'english' configuration. */
async function paraphraseViolations(db: Database, corpus: readonly BenchPage[]): Promise<string[]> {
  const bySlug = new Map(corpus.map((p) => [p.slug, p]))
  const violations: string[] = []
  for (const labelled of QUERIES.filter((q) => q.kind === 'paraphrase')) {
    for (const slug of labelled.relevant) {
      const text = `${slug} ${bySlug.get(slug)?.content ?? ''}`
      const { rows } = await db.query<{ shared: string[] | null }>(
        `SELECT array(SELECT unnest(tsvector_to_array(to_tsvector('english', $2)))
                      INTERSECT SELECT unnest(tsvector_to_array(to_tsvector('english', $1)))) AS shared`,
        [text, labelled.query],
      )
      const shared = rows[0]?.shared ?? []
      if (shared.length > 0) violations.push(`"${labelled.query}" shares ${shared.join(', ')} with ${slug}`)
    }
    if (queryTerms(labelled.query).length === 0) violations.push(`"${labelled.query}" has no words`)
  }
  return violations
}

async function ranked(context: SearchContext, mode: Mode, labelled: LabelledQuery): Promise<string[]> {
  const options = { limit: 10 }
  const response =
    mode === 'keyword' ? await search(context, labelled.query, options)
    : mode === 'vector' ? await vectorSearch(context, labelled.query, options)
    : await query(context, labelled.query, options)
  if (mode === 'hybrid' && response.keyword_only) throw new Error(`hybrid ran keyword-only: ${response.notice}`)
  return response.results.map((r) => r.slug)
}

function summarize(perQuery: Array<{ kind: QueryKind; ndcg10: number; recall5: number }>): Scores & { byKind: Record<QueryKind, Scores> } {
  const scores = (rows: typeof perQuery): Scores => ({ ndcg10: mean(rows.map((r) => r.ndcg10)), recall5: mean(rows.map((r) => r.recall5)) })
  const byKind = Object.fromEntries((['keyword', 'question', 'paraphrase'] as const).map((kind) => [kind, scores(perQuery.filter((r) => r.kind === kind))]))
  return { ...scores(perQuery), byKind: byKind as Record<QueryKind, Scores> }
}

export async function runRetrieval(engine: BenchEngine, embedder: EmbeddingProvider): Promise<EngineReport> {
  const corpus = buildCorpus()
  const { db, close } = await openBenchDatabase(engine)
  try {
    const chunks = await loadCorpus(db, corpus, embedder)
    const context: SearchContext = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    const known = new Set(corpus.map((p) => p.slug))
    const missing = QUERIES.flatMap((q) => q.relevant.filter((slug) => !known.has(slug)))
    if (missing.length > 0) throw new Error(`queries name slugs that are not in the corpus: ${missing.join(', ')}`)
    const byMode = {} as EngineReport['byMode']
    for (const mode of MODES) {
      const perQuery = []
      for (const labelled of QUERIES) {
        const results = await ranked(context, mode, labelled)
        const relevant = new Set(labelled.relevant)
        perQuery.push({ kind: labelled.kind, ndcg10: ndcgAtK(results, relevant, 10), recall5: recallAtK(results, relevant, 5) })
      }
      byMode[mode] = summarize(perQuery)
    }
    const hybrid = byMode.hybrid
    const hybridBeatsBoth = (['keyword', 'vector'] as const).every((m) => hybrid.ndcg10 > byMode[m].ndcg10 && hybrid.recall5 > byMode[m].recall5)
    return { engine, pages: corpus.length, chunks, queries: QUERIES.length, byMode, hybridBeatsBoth, paraphraseViolations: await paraphraseViolations(db, corpus) }
  } finally {
    await close()
  }
}

function table(report: EngineReport): string {
  const f = (n: number): string => n.toFixed(3)
  const lines = [
    `engine ${report.engine}: ${report.pages} pages, ${report.chunks} chunks, ${report.queries} queries`,
    '| mode | nDCG@10 | recall@5 | nDCG@10 keyword / question / paraphrase | recall@5 keyword / question / paraphrase |',
    '|---|---|---|---|---|',
  ]
  for (const mode of MODES) {
    const s = report.byMode[mode]
    const kinds = (['keyword', 'question', 'paraphrase'] as const)
    lines.push(`| ${mode} | ${f(s.ndcg10)} | ${f(s.recall5)} | ${kinds.map((kd) => f(s.byKind[kd].ndcg10)).join(' / ')} | ${kinds.map((kd) => f(s.byKind[kd].recall5)).join(' / ')} |`)
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const engines = enginesFromArgs(args.includes('pglite') || args.includes('postgres') ? args : ['pglite'])
  const embedder = createEmbeddingProvider({ provider: 'local' })
  const reports: EngineReport[] = []
  try {
    for (const engine of engines) reports.push(await runRetrieval(engine, embedder))
  } finally {
    stopBenchCluster()
  }
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`)
  else for (const report of reports) process.stdout.write(`${table(report)}\n\n`)
  let failed = false
  for (const report of reports) {
    for (const violation of report.paraphraseViolations) process.stderr.write(`paraphrase check: ${violation}\n`)
    if (report.paraphraseViolations.length > 0) failed = true
    if (!report.hybridBeatsBoth) {
      process.stderr.write(`${report.engine}: hybrid does not beat both keyword and vector on nDCG@10 and recall@5\n`)
      failed = true
    }
  }
  process.exit(failed ? 1 : 0)
}

if (process.argv[1]?.endsWith('/retrieval/run.js')) await main()
