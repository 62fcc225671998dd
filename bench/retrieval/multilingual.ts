/**
 * bench/retrieval multilingual set: the same retrieval task in eight languages, built from the
 * Unicode CLDR emoji annotations as the `emojibase-data` npm package ships them (parallel text:
 * every emoji has a name and keywords in each locale, written by CLDR's translators).
 *
 * Each emoji (groups 0–8 without components: faces, people, animals, food, travel, activities,
 * objects, symbols; no flags) is one page whose body is its keywords, with any keyword equal to
 * the name left out; every fourth emoji's name is a query, and that emoji's page is its only
 * relevant document. So a query is answered by words the name shares with the keywords
 * (`nerd face` → `face, geek, nerd`), by stems (`grinsendes` → `grinsen`), by pieces of CJK
 * words (`眼镜笑脸` → `眼镜`) or by meaning. The labels are mechanical; nobody chose them after
 * seeing a ranking.
 *
 * Per language and engine: nDCG@10 of
 * - `fts` — PostgreSQL full text search alone (to_tsvector/plainto_tsquery with the language's
 *   configuration, any word, ts_rank), the baseline without brain's segmentation or BM25;
 * - `keyword english` — `brain search` with the default search.language;
 * - `keyword <config>` — after `brain reindex --language <config>` (german, french, …; `simple`
 *   for Chinese, Japanese and Korean);
 * - `hybrid` — `brain query` with the shipped local model under that configuration.
 * And the indexing cost of CJK segmentation: to_tsvector over every page body without
 * brain_search_text(), with its first form (migration 0460, recreated here) and with its form
 * now (0471), in milliseconds per 1,000 pages.
 *
 *   node dist/bench/retrieval/multilingual.js [pglite] [postgres] [--langs en,de,zh] [--no-hybrid] [--json]
 *   npm run bench -- retrieval --multilingual [the same arguments]
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Database } from '../../src/db/types.js'
import { createEmbeddingProvider, type EmbeddingProvider } from '../../src/embedding/index.js'
import { importPages } from '../../src/pages/import-batch.js'
import { query, search, setSearchLanguage, type SearchDeps } from '../../src/search/index.js'
import { firstSearchTextFunction } from '../../test/helpers/first-segmenter.js'
import { enginesFromArgs, openBenchDatabase, stopBenchCluster, type BenchEngine } from '../lib/engines.js'
import { cachingEmbedder } from './embed-cache.js'
import { mean, ndcgAtK } from './metrics.js'

const LANGUAGES: Record<string, string> = { en: 'english', de: 'german', fr: 'french', es: 'spanish', ru: 'russian', zh: 'simple', ja: 'simple', ko: 'simple' }
const CJK = new Set(['zh', 'ja', 'ko'])

interface Emoji {
  label: string
  hexcode: string
  tags?: string[]
  group?: number
}

interface Doc {
  slug: string
  content: string
}

interface LanguageSet {
  lang: string
  docs: Doc[]
  queries: Array<{ text: string; slug: string }>
}

export function languageSet(lang: string): LanguageSet {
  const require = createRequire(import.meta.url)
  const data = JSON.parse(readFileSync(require.resolve(`emojibase-data/${lang}/data.json`), 'utf8')) as Emoji[]
  const usable = data.filter((e) => e.group !== undefined && e.group <= 8 && e.group !== 2 && (e.tags ?? []).length > 0)
  const docs: Doc[] = []
  const queries: LanguageSet['queries'] = []
  usable.forEach((e, index) => {
    const keywords = (e.tags ?? []).filter((tag) => tag.toLowerCase() !== e.label.toLowerCase())
    if (keywords.length === 0) return
    const slug = `emoji/${e.hexcode.toLowerCase()}`
    docs.push({ slug, content: `${keywords.join(', ')}\n` })
    if (index % 4 === 0) queries.push({ text: e.label, slug })
  })
  return { lang, docs, queries }
}

type Mode = 'fts' | 'keyword english' | 'keyword native' | 'hybrid'

interface LanguageReport {
  engine: BenchEngine
  lang: string
  config: string
  docs: number
  queries: number
  ndcg10: Partial<Record<Mode, number>>
  /** CJK only: to_tsvector over every body, ms per 1,000 pages: no segmentation, its first form (0460), its form now (0471). */
  segmentation?: { plainMs: number; firstFormMs: number; segmentedMs: number }
}

async function ftsRanks(db: Database, config: string, set: LanguageSet): Promise<number[]> {
  await db.query('CREATE TEMP TABLE IF NOT EXISTS raw_docs (slug text, tsv tsvector)')
  await db.query('TRUNCATE raw_docs')
  await db.query(`INSERT INTO raw_docs SELECT x.slug, to_tsvector($2::regconfig, x.content) FROM jsonb_to_recordset($1::jsonb) AS x(slug text, content text)`, [JSON.stringify(set.docs), config])
  const scores: number[] = []
  for (const q of set.queries) {
    const { rows } = await db.query<{ slug: string }>(
      `WITH q AS (SELECT nullif(replace(plainto_tsquery($2::regconfig, $1)::text, '&', '|'), '')::tsquery AS q)
       SELECT slug FROM raw_docs, q WHERE q.q IS NOT NULL AND tsv @@ q.q ORDER BY ts_rank(tsv, q.q) DESC, slug LIMIT 10`,
      [q.text, config],
    )
    scores.push(
      ndcgAtK(
        rows.map((r) => r.slug),
        new Set([q.slug]),
        10,
      ),
    )
  }
  return scores
}

async function brainScores(context: SearchDeps, set: LanguageSet, mode: 'keyword' | 'hybrid'): Promise<number> {
  const scores: number[] = []
  for (const q of set.queries) {
    const response = mode === 'keyword' ? await search(context, q.text, { limit: 10 }) : await query(context, q.text, { limit: 10, rerank: false })
    if (mode === 'hybrid' && response.keyword_only) throw new Error(`hybrid ran keyword-only: ${response.notice}`)
    scores.push(
      ndcgAtK(
        response.results.map((r) => r.slug),
        new Set([q.slug]),
        10,
      ),
    )
  }
  return mean(scores)
}

async function segmentationCost(db: Database, set: LanguageSet): Promise<NonNullable<LanguageReport['segmentation']>> {
  const payload = JSON.stringify(set.docs)
  const time = async (expression: string): Promise<number> => {
    const sql = `SELECT sum(length(${expression})) FROM jsonb_to_recordset($1::jsonb) AS x(slug text, content text)`
    await db.query(sql, [payload])
    const runs: number[] = []
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      await db.query(sql, [payload])
      runs.push(performance.now() - started)
    }
    runs.sort((a, b) => a - b)
    return (runs[2]! / set.docs.length) * 1000
  }
  await db.query(firstSearchTextFunction('bench_first_search_text'))
  return {
    plainMs: await time(`to_tsvector('simple', x.content)`),
    firstFormMs: await time(`to_tsvector('simple', bench_first_search_text(x.content))`),
    segmentedMs: await time(`to_tsvector('simple', brain_search_text(x.content))`),
  }
}

async function runLanguage(engine: BenchEngine, set: LanguageSet, embedder: EmbeddingProvider | null): Promise<LanguageReport> {
  const config = LANGUAGES[set.lang]!
  const { db, close } = await openBenchDatabase(engine)
  try {
    await importPages(
      db,
      set.docs.map((d) => ({ slug: d.slug, kind: 'markdown' as const, content: d.content })),
      { embedder },
    )
    const context: SearchDeps = { db, settings: { excludeRaw: null, sourceBoostRaw: null, graphBoost: false }, ...(embedder ? { embedder } : {}) }
    const ndcg10: LanguageReport['ndcg10'] = {}
    ndcg10.fts = mean(await ftsRanks(db, config, set))
    ndcg10['keyword english'] = await brainScores(context, set, 'keyword')
    if (config !== 'english') await setSearchLanguage(db, config)
    ndcg10['keyword native'] = config === 'english' ? ndcg10['keyword english'] : await brainScores(context, set, 'keyword')
    if (embedder) ndcg10.hybrid = await brainScores(context, set, 'hybrid')
    const report: LanguageReport = { engine, lang: set.lang, config, docs: set.docs.length, queries: set.queries.length, ndcg10 }
    if (CJK.has(set.lang)) report.segmentation = await segmentationCost(db, set)
    return report
  } finally {
    await close()
  }
}

function table(reports: readonly LanguageReport[]): string {
  const f = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(3))
  const lines = [
    '| engine | lang | config | pages | queries | fts | keyword english | keyword config | hybrid | CJK to_tsvector ms per 1k pages: none / 0460 / 0471 |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const r of reports) {
    const seg = r.segmentation ? `${r.segmentation.plainMs.toFixed(1)} / ${r.segmentation.firstFormMs.toFixed(1)} / ${r.segmentation.segmentedMs.toFixed(1)}` : ''
    lines.push(
      `| ${r.engine} | ${r.lang} | ${r.config} | ${r.docs} | ${r.queries} | ${f(r.ndcg10.fts)} | ${f(r.ndcg10['keyword english'])} | ${f(r.ndcg10['keyword native'])} | ${f(r.ndcg10.hybrid)} | ${seg} |`,
    )
  }
  return lines.join('\n')
}

/** Also `npm run bench -- retrieval --multilingual [pglite] [postgres] …`. */
export async function runMultilingual(argv: string[]): Promise<void> {
  const engines = enginesFromArgs(argv)
  const langsArg = argv[argv.indexOf('--langs') + 1]
  const langs = argv.includes('--langs') && langsArg ? langsArg.split(',') : Object.keys(LANGUAGES)
  // Both engines import the same pages: their vectors are computed once.
  const embedder = argv.includes('--no-hybrid') ? null : cachingEmbedder(createEmbeddingProvider({ provider: 'local' }), null)
  const reports: LanguageReport[] = []
  try {
    for (const engine of engines) {
      for (const lang of langs) {
        const report = await runLanguage(engine, languageSet(lang), embedder)
        reports.push(report)
        process.stderr.write(`${engine} ${lang}: ${JSON.stringify(report.ndcg10)}\n`)
      }
    }
  } finally {
    stopBenchCluster()
  }
  process.stdout.write(argv.includes('--json') ? `${JSON.stringify(reports, null, 2)}\n` : `${table(reports)}\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMultilingual(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
      stopBenchCluster()
      process.exit(1)
    },
  )
}
