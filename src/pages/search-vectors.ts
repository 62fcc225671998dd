import type { ChunkDraft } from '../chunking/index.js'
import { openComputeLane, type ComputeLane, type Database, type SqlExecutor } from '../db/index.js'

/**
 * The full-text vectors of new pages and their chunks, worked out ahead of their write on a
 * compute lane (another core) with the brain's own functions, brain_page_search_vector and
 * brain_chunk_search_vector, so they are what the insert triggers would compute. The write stores
 * them only while the brain's language is still the one they were computed for; otherwise, and for
 * any page without them, the triggers compute the vectors as usual.
 */

/** A page's vector and each of its chunks' vector and length, in text form. */
export interface PageVectors {
  page: string
  /** Each chunk's vector, its length and, when worked out in this process, the lexeme part of its impact tiers. */
  chunks: ReadonlyArray<{ vector: string; length: number; tiers?: string }>
}

/** Vectors for some pages, with the text-search configuration they were computed for. */
export interface BatchVectors {
  config: string
  byPage: ReadonlyMap<number, PageVectors>
}

/** What to analyse: a page's key in its batch, its title and text, and its chunks. */
export interface AnalysedPage {
  key: number
  title: string
  compiledTruth: string
  chunks: readonly ChunkDraft[]
}

/** A lane that is open, with the configuration to analyse for. */
export interface VectorAnalyser {
  lane: ComputeLane
  config: string
}

/**
 * Opens a lane for an import in the background: until it is ready (a second embedded engine takes
 * a second or two to start) `ready()` is null and batches are analysed by the triggers; `opened`
 * settles once it is (null: there is no lane).
 */
export function startVectorAnalysis(db: Database): { ready: () => VectorAnalyser | null; opened: Promise<VectorAnalyser | null>; close: () => Promise<void> } {
  let analyser: VectorAnalyser | null = null
  let closed = false
  const opening = (async () => {
    const config = await brainSearchConfig(db)
    const lane = await openComputeLane(db)
    if (lane === null) return
    if (closed) await lane.close()
    else analyser = { lane, config }
  })().catch(() => undefined)
  return {
    ready: () => analyser,
    opened: opening.then(() => analyser),
    async close() {
      closed = true
      await opening
      const open = analyser
      analyser = null
      await open?.lane.close()
    },
  }
}

async function brainSearchConfig(db: SqlExecutor): Promise<string> {
  const { rows } = await db.query<{ config: string }>('SELECT brain_search_language()::text AS config')
  return rows[0]!.config
}

/**
 * How long a batch's analysis may take before the write goes on without it: a lane that stopped
 * answering must not hold the import up.
 */
const LANE_ANSWER_MS = 60_000

/** The answers, or nothing when they are not all in within `ms`. */
async function answeredWithin<A, B>(ms: number, calls: [Promise<A>, Promise<B>]): Promise<[A, B] | [undefined, undefined]> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<[undefined, undefined]>((resolve) => {
    timer = setTimeout(() => resolve([undefined, undefined]), ms)
    timer.unref()
  })
  const all = Promise.all(calls)
  // An answer that fails after the time is up has nobody waiting for it.
  all.catch(() => undefined)
  try {
    return await Promise.race([all, late])
  } finally {
    clearTimeout(timer)
  }
}

/** The vectors of these pages, or null when the lane could not compute them (the triggers will). */
export async function analysePages(analyser: VectorAnalyser, pages: readonly AnalysedPage[]): Promise<BatchVectors | null> {
  if (pages.length === 0) return null
  const { lane, config } = analyser
  try {
    const chunks = pages.flatMap((p) => p.chunks)
    const [pageRows, chunkRows] = await answeredWithin(LANE_ANSWER_MS, [
      lane.query<{ v: string }>(
        `SELECT brain_page_search_vector($1::regconfig, x.title, x.body)::text AS v
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(title, body, ord) ORDER BY x.ord`,
        [config, pages.map((p) => p.title), pages.map((p) => p.compiledTruth)],
      ),
      lane.query<{ v: string; n: number }>(
        `SELECT y.v::text AS v, search_vector_length(y.v) AS n
         FROM (SELECT brain_chunk_search_vector($1::regconfig, x.doc, x.symbol, x.body) AS v, x.ord
               FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS x(doc, symbol, body, ord)) AS y
         ORDER BY y.ord`,
        [config, chunks.map((c) => c.docComment), chunks.map((c) => c.symbolNameQualified), chunks.map((c) => c.text)],
      ),
    ])
    if (pageRows === undefined || chunkRows === undefined) return null
    if (pageRows.rows.length !== pages.length || chunkRows.rows.length !== chunks.length) return null
    const byPage = new Map<number, PageVectors>()
    let next = 0
    for (const [i, p] of pages.entries()) {
      const own = chunkRows.rows.slice(next, next + p.chunks.length).map((r) => ({ vector: r.v, length: Number(r.n) }))
      next += p.chunks.length
      byPage.set(p.key, { page: pageRows.rows[i]!.v, chunks: own })
    }
    return { config, byPage }
  } catch {
    return null
  }
}

/**
 * Tells the insert triggers of this transaction to keep the vectors the rows carry (each insert
 * still checks the configuration they were made for); `false` turns that off again, and takes back
 * any tiers given.
 */
export async function keepGivenVectors(tx: SqlExecutor, on: boolean): Promise<void> {
  if (on) await tx.query(`SELECT set_config('brain.search_vectors_given', 'on', true)`)
  else await tx.query(`SELECT set_config('brain.search_vectors_given', 'off', true), set_config('brain.search_tiers_given', '', true)`)
}

/**
 * Hands the search rows' trigger (migration 0620) the impact tiers of the chunks about to be
 * inserted while vectors are kept, by page id and chunk index, with the configuration they were
 * worked out in.
 */
export async function giveTiers(tx: SqlExecutor, config: string, tiers: Readonly<Record<string, string>>): Promise<void> {
  await tx.query(`SELECT set_config('brain.search_tiers_given', $1, true)`, [JSON.stringify({ config, tiers })])
}
