import { CHUNKER_VERSION, type ChunkDraft } from '../chunking/index.js'
import { CallSiteCollector, insertCodeGraphsOfNewPages, type PageCodeGraph } from '../code/index.js'
import type { Database, SqlExecutor } from '../db/index.js'
import { DiskError } from '../errors/index.js'
import { derivedLinkSettings, linkNewMarkdownPages } from '../links/index.js'
import { computePageContentHash } from './content-hash.js'
import { insertChunksOfNewPages } from './chunk-repository.js'
import { chunk, equivalentHash, importPage, pageWrite, prepare, validateContent, writePage, type ImportInput, type ImportOptions, type ImportResult, type PreparedPage } from './import-page.js'
import { recordWrite } from './keep-version.js'
import { addTagsOfNewPages, insertNewPages, type PageWrite } from './page-repository.js'
import { analysePages, giveTiers, keepGivenVectors, type AnalysedPage, type BatchVectors, type PageVectors, type VectorAnalyser } from './search-vectors.js'
import { inProcessAnalyser, slugTiers } from './search-vectors-here.js'
import { normalizeSlug } from './slug.js'
import { DEFAULT_SOURCE_ID } from './types.js'
import { writePaceOf } from './write-pace.js'

/**
 * Bulk writes through the one import pipeline: the pages of a batch that do not exist yet are
 * written with one statement per table (pages, tags, chunks, explicit links) instead of one per
 * page, so the statement overhead and the statement-level statistics triggers are paid per batch,
 * in one transaction, or on the embedded engine in parts of one transaction each, sized so that
 * another command never waits long for the engine (write-pace.ts). The result is the brain a
 * page-at-a-time import leaves: a batch holds notes or code, never both (a note cites only code
 * written before it), and a page after an entity page of its batch sees that entity's names,
 * the pages before it do not. Everything else goes through importPage one page at a time,
 * exactly as a single write: pages that exist (unchanged ones are skipped), a dry run, writes
 * that embed, and any batch the database refuses (each page then gets its own error). Results
 * come back in input order.
 */

export type BatchOutcome = { ok: true; result: ImportResult } | { ok: false; error: unknown }

type Chunked = { drafts: ChunkDraft[]; codeGraph: PageCodeGraph } | { error: unknown }

interface Planned {
  index: number
  input: ImportInput
  slug: string
  sourceId: string
  page: PreparedPage
  contentHash: string
  /** The page's chunks when they were cut ahead of the write. */
  chunked?: Chunked
}

interface NewPage extends Planned {
  drafts: ChunkDraft[]
  codeGraph: PageCodeGraph
}

/** A batch parsed with no database work yet: what writePlannedPages writes. */
export interface PlannedBatch {
  inputs: readonly ImportInput[]
  /** Inputs that failed to parse, by index; the others are planned. */
  failures: ReadonlyMap<number, unknown>
  planned: readonly Planned[]
  /** The full-text vectors of its pages, being worked out on a compute lane. */
  vectors?: Promise<BatchVectors | null>
}

export interface PlanOptions {
  /**
   * Also cut each page into chunks. They are wasted on pages the write finds unchanged, so a
   * caller asks for them when it expects new pages.
   */
  chunk?: boolean
  /** Let other work run between pages, so a batch can be parsed while the previous one is written. */
  yieldBetweenPages?: boolean
  /** Work out the full-text vectors of the chunked pages on this lane, beside the write before. */
  analyser?: VectorAnalyser | null
}

/**
 * Parses a batch: slugs, content checks, front matter, hashes and, when asked, chunks. Nothing
 * here reads the database, so it can run ahead of the write of the batch before it.
 */
export async function planPages(inputs: readonly ImportInput[], options: ImportOptions = {}, plan: PlanOptions = {}): Promise<PlannedBatch> {
  const failures = new Map<number, unknown>()
  const planned: Planned[] = []
  // Pages go to the lane a few at a time as they are chunked, so its analysis starts early in the batch.
  const analysing: Array<Promise<BatchVectors | null>> = []
  let toAnalyse: AnalysedPage[] = []
  const sendToLane = (): void => {
    if (plan.analyser && toAnalyse.length > 0) analysing.push(analysePages(plan.analyser, toAnalyse))
    toAnalyse = []
  }
  for (const [index, input] of inputs.entries()) {
    if (plan.yieldBetweenPages && index > 0) await new Promise<void>((resolve) => setImmediate(resolve))
    try {
      const slug = normalizeSlug(input.slug)
      validateContent(slug, input.content)
      const page = prepare(input, slug)
      const contentHash = computePageContentHash({ ...page, pageKind: input.kind, chunkerVersion: CHUNKER_VERSION })
      const p: Planned = { index, input, slug, sourceId: input.sourceId ?? DEFAULT_SOURCE_ID, page, contentHash }
      if (plan.chunk) p.chunked = await chunkPlanned(p, options)
      planned.push(p)
      if (p.chunked && 'drafts' in p.chunked) toAnalyse.push({ key: p.index, title: p.page.title, compiledTruth: p.page.compiledTruth, chunks: p.chunked.drafts })
      if (toAnalyse.length >= PAGES_PER_ANALYSIS) sendToLane()
    } catch (error) {
      failures.set(index, error)
    }
  }
  sendToLane()
  const batch: PlannedBatch = { inputs, failures, planned }
  if (analysing.length > 0) batch.vectors = Promise.all(analysing).then(mergeVectors)
  return batch
}

/** Pages sent to the compute lane at a time. */
const PAGES_PER_ANALYSIS = 20

/** The vectors of a batch from those of its parts; a part the lane could not do is left to the triggers. */
function mergeVectors(parts: ReadonlyArray<BatchVectors | null>): BatchVectors | null {
  const done = parts.filter((v): v is BatchVectors => v !== null)
  if (done.length === 0) return null
  return { config: done[0]!.config, byPage: new Map(done.flatMap((v) => [...v.byPage])) }
}

export async function importPages(db: Database, inputs: readonly ImportInput[], options: ImportOptions = {}): Promise<BatchOutcome[]> {
  return writePlannedPages(db, await planPages(inputs, options), options)
}

/** Writes a planned batch; results come back in input order. */
export async function writePlannedPages(db: Database, batch: PlannedBatch, options: ImportOptions = {}): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = new Array(batch.inputs.length)
  for (const [index, error] of batch.failures) outcomes[index] = { ok: false, error }
  const { planned } = batch
  const existing = await existingPages(db, planned)
  const vectors = (await batch.vectors) ?? null
  const single = async (p: Planned): Promise<void> => {
    try {
      outcomes[p.index] = { ok: true, result: await importPage(db, p.input, options) }
    } catch (error) {
      // A full disk refuses every page after this one too: the import stops with it instead of
      // reporting each remaining file as failed.
      if (error instanceof DiskError) throw error
      outcomes[p.index] = { ok: false, error }
    }
  }
  let run: Planned[] = []
  const seen = new Set<string>()
  const flush = async (): Promise<void> => {
    const pages = run
    run = []
    if (pages.length > 0) await writeNewPages(db, pages, { ...options, vectors }, outcomes, single)
  }
  for (const p of planned) {
    const key = `${p.sourceId}\u0000${p.slug}`
    const found = existing.get(key)
    // Unchanged, or unchanged but for the hash of the file it came from: skipped, as importPage would.
    if (found && (found.contentHash === p.contentHash || (p.input.unchangedAs !== undefined && found.contentHash === equivalentHash(p.input, p.slug)))) {
      outcomes[p.index] = {
        ok: true,
        result: { status: 'skipped', slug: p.slug, sourceId: p.sourceId, pageId: found.id, contentHash: p.contentHash, pageKind: p.input.kind, chunks: 0, embedded: 0, embedError: null },
      }
      continue
    }
    if (found || seen.has(key) || options.dryRun || options.embedder) {
      await flush()
      await single(p)
    } else {
      run.push(p)
    }
    seen.add(key)
  }
  await flush()
  return outcomes
}

async function existingPages(db: SqlExecutor, planned: readonly Planned[]): Promise<Map<string, { id: number; contentHash: string }>> {
  if (planned.length === 0) return new Map()
  const { rows } = await db.query<{ id: number; source_id: string; slug: string; content_hash: string }>(
    `SELECT p.id, p.source_id, p.slug, p.content_hash FROM pages p JOIN unnest($1::text[], $2::text[]) AS k(source_id, slug) ON p.source_id = k.source_id AND p.slug = k.slug`,
    [planned.map((p) => p.sourceId), planned.map((p) => p.slug)],
  )
  return new Map(rows.map((r) => [`${r.source_id}\u0000${r.slug}`, { id: Number(r.id), contentHash: r.content_hash }]))
}

/** How a batch's new pages are written: the import's options and the vectors worked out ahead. */
interface WriteOptions extends ImportOptions {
  vectors: BatchVectors | null
}

async function writeNewPages(db: Database, run: readonly Planned[], options: WriteOptions, outcomes: BatchOutcome[], single: (p: Planned) => Promise<void>): Promise<void> {
  const pages: NewPage[] = []
  const pace = writePaceOf(db)
  for (const p of run) {
    // Cutting hundreds of messages holds the thread too: where a command may be waiting for the
    // engine, it gets a turn between two pages.
    if (p.chunked === undefined && pace.paced && pages.length > 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const chunked = p.chunked ?? (await chunkPlanned(p, options))
    if ('error' in chunked) outcomes[p.index] = { ok: false, error: chunked.error }
    else pages.push({ ...p, ...chunked })
  }
  if (pages.length === 0) return
  // A group holds one kind: a note must not find (cite) a code file that comes after it.
  let group: NewPage[] = []
  for (const p of pages) {
    if (group.length > 0 && group[0]!.input.kind !== p.input.kind) {
      await writeGroup(db, group, options, outcomes, single)
      group = []
    }
    group.push(p)
  }
  await writeGroup(db, group, options, outcomes, single)
}

async function chunkPlanned(p: Planned, options: ImportOptions): Promise<Chunked> {
  try {
    const calls = new CallSiteCollector()
    const drafts = await chunk(p.input, p.page, p.slug, options, calls)
    return { drafts, codeGraph: calls.graph(drafts) }
  } catch (error) {
    return { error }
  }
}

/** Writes a group in parts of one transaction each, as its WritePace cuts it. */
async function writeGroup(db: Database, pages: readonly NewPage[], options: WriteOptions, outcomes: BatchOutcome[], single: (p: Planned) => Promise<void>): Promise<void> {
  const pace = writePaceOf(db)
  // A page's weight in the pace's cost line: the page and its chunks.
  const weights = pages.map((p) => 1 + p.drafts.length)
  for (let start = 0; start < pages.length;) {
    const end = start + pace.nextPart(weights.slice(start))
    const weight = weights.slice(start, end).reduce((sum, w) => sum + w, 0)
    await writePart(db, pages.slice(start, end), weight, options, outcomes, single)
    start = end
    await pace.letOthersIn()
  }
}

/** Writes pages in one transaction, or one by one if the database refuses it; `weight` is theirs in the pace. */
async function writePart(db: Database, pages: readonly NewPage[], weight: number, options: WriteOptions, outcomes: BatchOutcome[], single: (p: Planned) => Promise<void>): Promise<void> {
  const pace = writePaceOf(db)
  const started = performance.now()
  const vectors = options.vectors ?? (await vectorsHere(db, pages))
  const written = await writePage(db, pages[0]!.sourceId, async (tx) => {
    const ids = await insertNewPageBatch(tx, pages, { ...options, vectors })
    pace.took(weight, performance.now() - started)
    return ids
  }).catch((error: unknown) => {
    if (error instanceof DiskError) throw error
    return null
  })
  if (written === null) {
    for (const p of pages) await single(p)
    return
  }
  for (const [i, p] of pages.entries()) {
    outcomes[p.index] = {
      ok: true,
      result: {
        status: 'created',
        slug: p.slug,
        sourceId: p.sourceId,
        pageId: written[i]!,
        contentHash: p.contentHash,
        pageKind: p.input.kind,
        chunks: p.drafts.length,
        embedded: 0,
        embedError: null,
      },
    }
  }
}

/** Writes pages that do not exist yet; returns their ids in order. */
async function insertNewPageBatch(tx: SqlExecutor, pages: readonly NewPage[], options: WriteOptions): Promise<number[]> {
  // Read before the pages exist: an entity page of this batch is then not mentioned by the pages before it.
  const settings = await derivedLinkSettings(tx)
  const writes: PageWrite[] = []
  for (const p of pages) writes.push(pageWrite(p.input, p, await recordWrite(tx, null, { ...p.page, pageKind: p.input.kind }, options.keepVersions !== false)))
  const given = pages.map((p) => vectorsOf(p, options.vectors))
  const config = options.vectors?.config
  if (config !== undefined) await keepGivenVectors(tx, true)
  const ids = await insertNewPages(tx, writes, config === undefined ? undefined : { config, vectors: given.map((v) => v?.page ?? null) })
  await addTagsOfNewPages(
    tx,
    pages.map((p, i) => ({ pageId: ids[i]!, tags: p.page.tags })),
  )
  if (config !== undefined) {
    const tiers = givenTiers(pages, ids, given)
    if (Object.keys(tiers).length > 0) await giveTiers(tx, config, tiers)
  }
  const chunkRows = await insertChunksOfNewPages(
    tx,
    pages.map((p, i) => ({ pageId: ids[i]!, chunks: p.drafts, vectors: given[i]?.chunks })),
    config,
  )
  if (config !== undefined) await keepGivenVectors(tx, false)
  const markdown = []
  const code = []
  for (const [i, p] of pages.entries()) {
    const page = { id: ids[i]!, slug: p.slug, sourceId: p.sourceId }
    if (p.input.kind === 'code') code.push({ pageId: page.id, sourceId: p.sourceId, graph: p.codeGraph })
    else markdown.push({ page, type: p.page.type, text: { ...p.page, content: p.input.content } })
  }
  await insertCodeGraphsOfNewPages(tx, code, chunkRows)
  if (markdown.length > 0) await linkNewMarkdownPages(tx, markdown, { derived: options.autoLink !== false, settings })
  return ids
}

/**
 * The part's vectors worked out in this process, where the engine runs on this thread and no lane
 * worked them out ahead; null leaves them to the insert triggers. Outside the write's transaction,
 * so that a statement of the analysis that fails cannot take the write down with it.
 */
async function vectorsHere(db: Database, pages: readonly NewPage[]): Promise<BatchVectors | null> {
  // Code is left to the triggers: nearly all of it is groups the database's parser cuts anyway
  // (calls, members, generics), and a repository's vocabulary fills the analyser's memory for no
  // gain (a 45,000-chunk repository: the same CPU, 200 MB more at its peak).
  const prose = pages.filter((p) => p.input.kind !== 'code')
  if (db.capabilities.parallelStatements || prose.length === 0) return null
  try {
    const analyser = await inProcessAnalyser(db)
    return analyser === null
      ? null
      : await analyser.analyse(
          db,
          prose.map((p) => ({ key: p.index, title: p.page.title, compiledTruth: p.page.compiledTruth, chunks: p.drafts })),
        )
  } catch {
    return null
  }
}

/** The impact tiers worked out with the pages' vectors, by page id and chunk index: their lexemes' and the slug's. */
function givenTiers(pages: readonly NewPage[], ids: readonly number[], given: ReadonlyArray<PageVectors | undefined>): Record<string, string> {
  const tiers: Record<string, string> = {}
  for (const [i, p] of pages.entries()) {
    const chunks = given[i]?.chunks
    if (chunks === undefined) continue
    const slug = slugTiers(p.slug)
    for (const [k, c] of chunks.entries()) if (c.tiers !== undefined) tiers[`${ids[i]}:${p.drafts[k]!.chunkIndex}`] = `${c.tiers} ${slug}`
  }
  return tiers
}

/** A page's vectors worked out ahead, when they were made for the chunks being written. */
function vectorsOf(p: NewPage, vectors: BatchVectors | null): PageVectors | undefined {
  const found = vectors?.byPage.get(p.index)
  return found !== undefined && found.chunks.length === p.drafts.length ? found : undefined
}
