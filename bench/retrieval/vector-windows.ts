/**
 * Measures finer vector granularity offline: every chunk of every labelled set is also cut into
 * sentence windows, each window is embedded with the local model, and a page's vector score is
 * the best cosine over the units a variant keeps (whole chunks, windows, or both). The vector
 * list of each variant is fused with the real keyword list (`search`, 30 pages) exactly as hybrid
 * search fused before its per-chunk fusion (PAGE_FUSION), and nDCG@10 is reported per half. PGLite only; no engine-specific
 * SQL is involved (the vectors are read back and scored here).
 *
 *   node dist/bench/retrieval/vector-windows.js [--embed-cache FILE] [--only NAME] [--diff SETTING] [--all-chunk-rows]
 *
 * For each variant it prints the page-level fusion hybrid search used before (PAGE_FUSION), the best page-level setting, the best re-ranking
 * of keyword's top k, and the best chunk-level fusion, each chosen on the tuning halves (the
 * smallest margin over max(keyword, vector) across sets); `--diff SETTING` lists the queries a
 * setting moves against that page-level fusion, `--all-chunk-rows` every chunk-level setting.
 */
import { join } from 'node:path'
import { createEmbeddingProvider } from '../../src/embedding/index.js'
import { importPage } from '../../src/pages/index.js'
import { fuseHybrid, type FusionSettings } from './page-fusion.js'
import { keywordRows } from '../../src/search/keyword.js'
import { planSearch, resolveSourceBoosts, sourceFactor } from '../../src/search/options.js'
import { withSearchTransaction } from '../../src/search/sql.js'
import { search, type SearchDeps } from '../../src/search/index.js'
import { estimateTokens } from '../../src/chunking/index.js'
import { packageRoot } from '../../src/util/package-root.js'
import { openBenchDatabase, stopBenchCluster } from '../lib/engines.js'
import { builtinDataset, loadBeirDataset, type Dataset } from './datasets.js'
import { cachingEmbedder, type CachingEmbedder } from './embed-cache.js'
import { gradedNdcgAtK, mean, recallAtK } from './metrics.js'

interface Unit {
  /** Index of the chunk the unit belongs to (a chunk is its own). */
  chunk: number
  slug: string
  kind: 'chunk' | 'window'
  source: string
  text: string
  vector: Float32Array
}

/** Sentence-ish pieces of a chunk: non-empty lines, long lines cut after sentence ends. */
export function pieces(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^(`{3,}|~{3,})/.test(l))
    .flatMap((l) => l.split(/(?<=[.!?]["')\]]?)\s+(?=[A-Z`*_[(])/))
    .map((p) => p.trim())
    .filter((p) => /[A-Za-z]{2}/.test(p))
}

/** Consecutive pieces packed greedily up to `budget` estimated tokens; `stride` < size overlaps. */
export function windows(text: string, budget: number, overlap: boolean): string[] {
  const ps = pieces(text)
  const out: string[] = []
  for (let start = 0; start < ps.length;) {
    let end = start
    let tokens = 0
    while (end < ps.length && (end === start || tokens + estimateTokens(ps[end]!) <= budget)) tokens += estimateTokens(ps[end++]!)
    out.push(ps.slice(start, end).join('\n'))
    if (end >= ps.length) break
    start = overlap ? Math.max(start + 1, end - 1) : end
  }
  return out
}

const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}
const unit = (v: readonly number[]): Float32Array => {
  const out = Float32Array.from(v)
  const n = Math.sqrt(dot(out, out)) || 1
  for (let i = 0; i < out.length; i++) out[i]! /= n
  return out
}

function meanVector(vectors: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]?.length ?? 0)
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i]! += v[i]! / vectors.length
  return out
}

interface Variant {
  name: string
  budget: number
  overlap: boolean
  title: boolean
  keep: (u: Unit) => boolean
  /** What the query is embedded as, when not its text. */
  queryText?: (text: string) => string
  /** Each chunk's vector replaced by the mean of its windows' vectors (windows not kept). */
  meanOfWindows?: boolean
  /** What a chunk is embedded as, when not its stored text. */
  chunkText?: (text: string, source: string, title: string) => string
  /** Vectors (units and query) minus the mean of the set's units, renormalised. */
  centred?: boolean
  /** Chunk and window evidence combined: max (default) or chunk + λ·window. */
  combine?: (chunk: number, window: number) => number
}

async function embedAll(embedder: CachingEmbedder, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = []
  for (let i = 0; i < texts.length; i += 200) for (const v of await embedder.embed(texts.slice(i, i + 200))) out.push(unit(v))
  return out
}

function titleOf(content: string): string {
  const first = content.split('\n').find((l) => /^#\s/.test(l))
  return first ? first.replace(/^#\s+/, '') : ''
}

interface Collected {
  set: string
  halves: Array<0 | 1>
  grades: Array<Map<string, number>>
  keyword: Array<Array<{ slug: string; source_id: string; score: number }>>
  /** Per variant, per query: pages by vector score, best first. */
  vector: Map<string, Array<Array<{ slug: string; source_id: string; score: number }>>>
  units: Map<string, number>
  /** Per query: keyword-ranked chunks (not one per page), and every chunk's cosine. */
  chunkKeyword: Array<Array<{ id: number; slug: string; score: number }>>
  chunkCosine: Array<Array<{ id: number; slug: string; score: number }>>
  /** Per variant, per query: every chunk's vector evidence (its own cosine and its windows'). */
  variantChunkCosine: Map<string, Collected['chunkCosine']>
}

const LIST_DEPTH = 100

async function runSet(dataset: Dataset, embedder: CachingEmbedder, variants: readonly Variant[]): Promise<Collected> {
  const { db, close } = await openBenchDatabase('pglite')
  try {
    for (const doc of dataset.docs) await importPage(db, { slug: doc.slug, kind: doc.kind, content: doc.content, ...(doc.path ? { path: doc.path } : {}) }, { embedder })
    const context: SearchDeps = { db, embedder, settings: { excludeRaw: null, sourceBoostRaw: null } }
    const boosts = resolveSourceBoosts(null)
    const titles = new Map(dataset.docs.map((d) => [d.slug, titleOf(d.content)]))
    const idOf = new Map(dataset.docs.map((d) => [d.slug, d.id]))
    const rename = <R extends { slug: string }>(r: R): R => ({ ...r, slug: idOf.get(r.slug) ?? r.slug })
    const { rows } = await db.query<{ id: number; slug: string; chunk_text: string; chunk_source: string; embedding: string }>(
      `SELECT c.id, p.slug, c.chunk_text, c.chunk_source, c.embedding::text AS embedding FROM content_chunks c JOIN pages p ON p.id = c.page_id ORDER BY p.slug, c.chunk_index`,
    )
    const chunkUnits: Unit[] = rows.map((r, chunk) => ({ chunk, slug: r.slug, kind: 'chunk', source: r.chunk_source, text: r.chunk_text, vector: unit(JSON.parse(r.embedding) as number[]) }))
    const queries = await Promise.all(dataset.queries.map(async (q) => ({ q, vector: (await embedAll(embedder, [q.text]))[0]! })))
    const out: Collected = { set: dataset.name, halves: [], grades: [], keyword: [], vector: new Map(), units: new Map(), chunkKeyword: [], chunkCosine: [], variantChunkCosine: new Map() }
    const plan = planSearch({ limit: LIST_DEPTH }, context.settings)
    for (const { q } of queries) {
      out.halves.push(q.half === 'tune' ? 0 : 1)
      out.grades.push(q.grades)
      const chunkRows = await withSearchTransaction(db, (tx) => keywordRows(tx, plan, { query: q.text, match: 'any', perPage: false }))
      out.chunkKeyword.push(chunkRows.map((r) => ({ id: Number(r.chunk_id), slug: idOf.get(r.slug) ?? r.slug, score: Number(r.score) })))
      out.keyword.push((await search(context, q.text, { limit: LIST_DEPTH })).results.map((r) => rename({ slug: r.slug, source_id: r.source_id, score: r.score })))
    }
    for (const { vector } of queries)
      out.chunkCosine.push(rows.map((r, i) => ({ id: Number(r.id), slug: idOf.get(r.slug) ?? r.slug, score: dot(vector, chunkUnits[i]!.vector) * sourceFactor(r.slug, boosts) })))
    for (const variant of variants) {
      const windowTexts =
        variant.budget > 0
          ? chunkUnits.flatMap((c, chunk) =>
              windows(c.text, variant.budget, variant.overlap).map((w) => ({ chunk, slug: c.slug, source: c.source, text: variant.title ? `${titles.get(c.slug)}\n${w}` : w })),
            )
          : []
      const vectors = await embedAll(
        embedder,
        windowTexts.map((w) => w.text),
      )
      const own = variant.chunkText
      const rewritten = own
        ? await embedAll(
            embedder,
            chunkUnits.map((c) => own(c.text, c.source, titles.get(c.slug) ?? '')),
          )
        : null
      let chunksOfVariant = rewritten ? chunkUnits.map((c, i) => ({ ...c, vector: rewritten[i]! })) : chunkUnits
      if (variant.meanOfWindows) {
        chunksOfVariant = [...chunksOfVariant]
        chunksOfVariant.forEach((c, i) => {
          const own = vectors.filter((_, k) => windowTexts[k]!.chunk === i)
          if (own.length > 0) chunksOfVariant[i] = { ...c, vector: unit([...meanVector(own)]) }
        })
      }
      const units = [...chunksOfVariant, ...windowTexts.map((w, i) => ({ ...w, kind: 'window' as const, vector: vectors[i]! }))].filter(variant.keep)
      out.units.set(variant.name, units.length)
      const centre = variant.centred ? meanVector(units.map((u) => u.vector)) : null
      const shift = (v: Float32Array): Float32Array => (centre ? unit([...v].map((x, i) => x - centre[i]!)) : v)
      const scored = units.map((u) => ({ ...u, vector: shift(u.vector) }))
      const lists: Collected['keyword'] = []
      const perChunk: Collected['chunkCosine'] = []
      const ownQuery = variant.queryText
      const queryVectors = ownQuery
        ? await embedAll(
            embedder,
            queries.map(({ q }) => ownQuery(q.text)),
          )
        : queries.map((q) => q.vector)
      for (const raw of queryVectors) {
        const vector = shift(raw)
        const best = new Map<string, { chunk: number; window: number }>()
        for (const u of scored) {
          const cos = dot(vector, u.vector)
          const entry = best.get(u.slug) ?? { chunk: -1, window: -1 }
          if (u.kind === 'chunk') entry.chunk = Math.max(entry.chunk, cos)
          else entry.window = Math.max(entry.window, cos)
          best.set(u.slug, entry)
        }
        const combine = variant.combine ?? ((c: number, w: number) => Math.max(c, w))
        const ofChunk = rows.map(() => ({ chunk: -1, window: -1 }))
        for (const u of scored) {
          const cos = dot(vector, u.vector)
          const entry = ofChunk[u.chunk]!
          if (u.kind === 'chunk') entry.chunk = Math.max(entry.chunk, cos)
          else entry.window = Math.max(entry.window, cos)
        }
        perChunk.push(rows.map((r, i) => ({ id: Number(r.id), slug: idOf.get(r.slug) ?? r.slug, score: combine(ofChunk[i]!.chunk, ofChunk[i]!.window) * sourceFactor(r.slug, boosts) })))
        lists.push(
          [...best]
            .map(([slug, e]) => ({ slug, source_id: 'default', score: combine(e.chunk, e.window) * sourceFactor(slug, boosts) }))
            .sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : 1))
            .map(rename),
        )
      }
      out.vector.set(variant.name, lists)
      out.variantChunkCosine.set(variant.name, perChunk)
    }
    return out
  } finally {
    await close()
  }
}

/** The page-level fusion hybrid search shipped before the per-chunk one, and its list depth. */
const PAGE_FUSION: Omit<FusionSettings, 'depth'> = { method: 'convex', keywordWeight: 0.75, norm: 'minmax', vectorNorm: 'raw', k: 0 }
const PAGE_DEPTH = 30

const ndcg = (list: ReadonlyArray<{ slug: string }>, grades: Map<string, number>): number =>
  gradedNdcgAtK(
    list.slice(0, 10).map((r) => r.slug),
    grades,
    10,
  )

interface Grid {
  name: string
  /** Fuses per chunk instead of per page, when set. */
  chunkFuse?: (kw: Collected['chunkKeyword'][number], cos: Collected['chunkCosine'][number]) => Array<{ slug: string }>
  fuse: (kw: Collected['keyword'][number], vec: Collected['keyword'][number]) => Array<{ slug: string }>
}

/** Keyword's top k reordered by w · minmax(keyword) + (1 − w) · cosine; nothing else enters. */
function rerank(kw: Collected['keyword'][number], vec: Collected['keyword'][number], k: number, w: number): Array<{ slug: string }> {
  const top = kw.slice(0, k)
  const cos = new Map(vec.map((v) => [v.slug, v.score]))
  const max = Math.max(...top.map((r) => r.score))
  const min = Math.min(...top.map((r) => r.score))
  const span = max - min
  const scored = top.map((r, i) => ({ slug: r.slug, i, s: w * (span > 0 ? (r.score - min) / span : 1) + (1 - w) * (cos.get(r.slug) ?? 0) }))
  scored.sort((a, b) => b.s - a.s || a.i - b.i)
  return [...scored, ...kw.slice(k)]
}

/**
 * Per chunk: w · minmax(BM25 of the chunk) + (1 − w) · cosine of the same chunk, over the keyword's
 * top `depth` chunks and the vector's top `depth` chunks; a page is its best chunk.
 */
function chunkFusion(kw: Collected['chunkKeyword'][number], cos: Collected['chunkCosine'][number], w: number, depth: number): Array<{ slug: string }> {
  const top = kw.slice(0, depth)
  const max = Math.max(...top.map((r) => r.score))
  const min = Math.min(...top.map((r) => r.score))
  const kwOf = new Map(top.map((r) => [r.id, max > min ? (r.score - min) / (max - min) : 1]))
  const near = [...cos].sort((a, b) => b.score - a.score).slice(0, depth)
  const candidates = new Set([...top.map((r) => r.id), ...near.map((r) => r.id)])
  const best = new Map<string, number>()
  for (const c of cos) {
    if (!candidates.has(c.id)) continue
    const score = w * (kwOf.get(c.id) ?? 0) + (1 - w) * c.score
    if (score > (best.get(c.slug) ?? -Infinity)) best.set(c.slug, score)
  }
  return [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([slug]) => ({ slug }))
}

function grid(): Grid[] {
  const out: Grid[] = [{ name: 'page-level w0.75 (before)', fuse: (kw, vec) => fuseHybrid(kw, vec, { ...PAGE_FUSION, depth: PAGE_DEPTH }).map((f) => f.item) }]
  for (let w = 0.2; w < 0.96; w += 0.05) {
    const keywordWeight = Number(w.toFixed(2))
    for (const depth of [30, 50, 100]) {
      out.push({ name: `chunk-level w${keywordWeight} d${depth}`, fuse: () => [], chunkFuse: (kw, cos) => chunkFusion(kw, cos, keywordWeight, depth) })
    }
  }
  for (const k of [10, 20, 30]) {
    for (let w = 0.5; w < 0.96; w += 0.05) {
      const keywordWeight = Number(w.toFixed(2))
      out.push({ name: `rerank k${k} w${keywordWeight}`, fuse: (kw, vec) => rerank(kw, vec, k, keywordWeight) })
    }
  }
  for (const depth of [30, 50]) {
    for (let w = 0.5; w < 0.96; w += 0.05) {
      for (const vectorNorm of ['raw', 'minmax'] as const) {
        const keywordWeight = Number(w.toFixed(2))
        out.push({ name: `convex w${keywordWeight} ${vectorNorm} d${depth}`, fuse: (kw, vec) => fuseHybrid(kw, vec, { ...PAGE_FUSION, keywordWeight, vectorNorm, depth }).map((f) => f.item) })
      }
    }
  }
  return out
}

function report(sets: readonly Collected[], variants: readonly Variant[], options: { diff: string | null; allChunkRows: boolean }): void {
  const fmt = (n: number): string => n.toFixed(3)
  const byHalf = (values: number[], halves: Array<0 | 1>, h: 0 | 1 | 2): number => mean(values.filter((_, i) => h === 2 || halves[i] === h))
  for (const variant of variants) {
    const rows = grid().map((g) => {
      const perSet = sets.map((s) => {
        const vec = s.vector.get(variant.name)!
        const kwN = s.keyword.map((l, i) => ndcg(l, s.grades[i]!))
        const vecN = vec.map((l, i) => ndcg(l, s.grades[i]!))
        const cosines = s.variantChunkCosine.get(variant.name)!
        const hybN = s.keyword.map((l, i) => ndcg(g.chunkFuse ? g.chunkFuse(s.chunkKeyword[i]!, cosines[i]!) : g.fuse(l, vec[i]!), s.grades[i]!))
        const halves = [0, 1, 2] as const
        return halves.map((h) => ({ kw: byHalf(kwN, s.halves, h), vec: byHalf(vecN, s.halves, h), hyb: byHalf(hybN, s.halves, h) }))
      })
      const tuneWorst = Math.min(...perSet.map((p) => p[0].hyb - Math.max(p[0].kw, p[0].vec)))
      return { g, perSet, tuneWorst }
    })
    const before = rows[0]!
    const best = [...rows].sort((a, b) => b.tuneWorst - a.tuneWorst)[0]!
    const bestChunk = rows.filter((r) => r.g.name.startsWith('chunk-level')).sort((a, b) => b.tuneWorst - a.tuneWorst)[0]!
    const bestRerank = rows.filter((r) => r.g.name.startsWith('rerank')).sort((a, b) => b.tuneWorst - a.tuneWorst)[0]!
    const recall30 = sets.map((s) => {
      const vec = s.vector.get(variant.name)!
      return `${s.set} ${fmt(
        mean(
          vec.map((l, i) =>
            recallAtK(
              l.map((r) => r.slug),
              new Set([...s.grades[i]!].filter(([, g]) => g > 0).map(([id]) => id)),
              30,
            ),
          ),
        ),
      )}`
    })
    process.stdout.write(`${variant.name}: vector recall@30 ${recall30.join(', ')}\n`)
    const diff = options.diff ? grid().find((g) => g.name === options.diff) : undefined
    if (diff && variant === variants[0]) {
      for (const set of sets) {
        const vec = set.vector.get(variant.name)!
        set.keyword.forEach((l, i) => {
          const a = ndcg(grid()[0]!.fuse(l, vec[i]!), set.grades[i]!)
          const b = ndcg(diff.chunkFuse ? diff.chunkFuse(set.chunkKeyword[i]!, set.chunkCosine[i]!) : diff.fuse(l, vec[i]!), set.grades[i]!)
          if (Math.abs(a - b) > 1e-9)
            process.stdout.write(
              `  diff ${set.set} ${set.halves[i] === 0 ? 'tune' : 'held'} #${i} kw ${fmt(ndcg(l, set.grades[i]!))} vec ${fmt(ndcg(vec[i]!, set.grades[i]!))} page-level ${fmt(a)} -> ${fmt(b)}\n`,
            )
        })
      }
    }
    const chunkRows = rows.filter((r) => r.g.name.startsWith('chunk-level'))
    const chunkLevel = [bestChunk, ...(options.allChunkRows ? chunkRows : [])]
    for (const row of [before, best, bestRerank, ...chunkLevel]) {
      process.stdout.write(
        `${variant.name.padEnd(30)} ${row.g.name.padEnd(26)} tune-worst ${fmt(row.tuneWorst)} | ` +
          row.perSet
            .map((p, i) => `${sets[i]!.set} vec ${fmt(p[0].vec)}/${fmt(p[1].vec)} hyb ${fmt(p[0].hyb)}/${fmt(p[1].hyb)}/${fmt(p[2].hyb)} (+${fmt(p[2].hyb - Math.max(p[2].kw, p[2].vec))})`)
            .join(' | ') +
          '\n',
      )
    }
  }
}

const half = (values: readonly number[], parity: 0 | 1): string => mean(values.filter((_, i) => i % 2 === parity)).toFixed(3)

const headerless = (text: string, source: string): string => (source === 'fenced_code' ? text.split('\n').slice(1).join('\n') : text)
const titled = (t: string, s: string, title: string): string => (s === 'fenced_code' ? `${title}\n${headerless(t, s)}` : t)
const fusedWindow = (c: number, w: number): number => (c + 0.5 * Math.max(c, w)) / 1.5
const QUESTION_WORDS = /^(how (do i|to|can i|is|are|does)|what (is|are|does|error|happens)?|which|why|when|where)\s+/i
const VARIANTS: Variant[] = [
  { name: 'chunks (as stored)', budget: 0, overlap: false, title: false, keep: (u) => u.kind === 'chunk' },
  { name: 'prose chunks only', budget: 0, overlap: false, title: false, keep: (u) => u.kind === 'chunk' && u.source !== 'fenced_code' },
  { name: 'chunks centred', budget: 0, overlap: false, title: false, keep: (u) => u.kind === 'chunk', centred: true },
  { name: 'fence chunks without header', budget: 0, overlap: false, title: false, keep: (u) => u.kind === 'chunk', chunkText: headerless },
  { name: 'fence chunks titled', budget: 0, overlap: false, title: false, keep: (u) => u.kind === 'chunk', chunkText: titled },
  { name: 'query without question words', budget: 0, overlap: false, title: false, keep: (u) => u.kind === 'chunk', queryText: (t) => t.replace(QUESTION_WORDS, '') },
  ...[16, 32, 64, 128].flatMap((budget): Variant[] => [
    { name: `windows ${budget}`, budget, overlap: false, title: false, keep: (u) => u.kind === 'window' },
    { name: `windows ${budget} + chunks`, budget, overlap: false, title: false, keep: () => true },
    { name: `windows ${budget} overlap + chunks`, budget, overlap: true, title: false, keep: () => true },
    { name: `windows ${budget} titled + chunks`, budget, overlap: false, title: true, keep: () => true },
    { name: `chunk + .5 window ${budget}`, budget, overlap: false, title: false, keep: () => true, combine: fusedWindow },
    { name: `mean of windows ${budget}`, budget, overlap: false, title: false, keep: (u) => u.kind === 'chunk', meanOfWindows: true },
  ]),
]

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const cacheAt = args.indexOf('--embed-cache')
  const only = args.flatMap((a, i) => (a === '--only' && args[i + 1] ? [args[i + 1]!] : []))
  const embedder = cachingEmbedder(createEmbeddingProvider({ provider: 'local' }), cacheAt >= 0 ? (args[cacheAt + 1] ?? null) : null)
  const datasets = [builtinDataset(), loadBeirDataset(join(packageRoot(), 'bench', 'retrieval', 'readme-set'))].filter((d) => only.length === 0 || only.includes(d.name))
  const sets: Collected[] = []
  try {
    for (const dataset of datasets) sets.push(await runSet(dataset, embedder, VARIANTS))
  } finally {
    embedder.save()
    stopBenchCluster()
  }
  const diffAt = args.indexOf('--diff')
  report(sets, VARIANTS, { diff: diffAt >= 0 ? (args[diffAt + 1] ?? null) : null, allChunkRows: args.includes('--all-chunk-rows') })
}

if (process.argv[1]?.endsWith('/retrieval/vector-windows.js')) await main()
