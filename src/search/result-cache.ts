import type { Database } from '../db/index.js'
import { keywordRows } from './keyword.js'
import type { SearchPlan } from './options.js'
import { withSearchTransaction, type ResultRow } from './sql.js'

/**
 * Keyword result lists kept per open database, each tagged with the search generation
 * (migrations/0200_search_generation.sql) it was computed at. Any committed change to pages or
 * chunks moves the generation, so a kept list is served only while the database would still
 * answer it; one row read replaces the ranking statements. Agents repeat searches (every turn,
 * every client on a shared server), which is what this pays for.
 */
export const RESULT_CACHE_ENTRIES = 256
/** Rows kept over all entries: a page of 100 results carries up to 100 chunk texts. */
export const RESULT_CACHE_ROWS = 5_000

interface Entry {
  generation: string
  rows: ResultRow[]
}

/** Map order is the LRU order: re-inserting an entry marks it as the most recently used. */
export class KeptResults {
  private readonly entries = new Map<string, Entry>()
  private rows = 0

  get(key: string, generation: string): ResultRow[] | undefined {
    const kept = this.entries.get(key)
    if (!kept || kept.generation !== generation) return undefined
    this.entries.delete(key)
    this.entries.set(key, kept)
    return kept.rows
  }

  set(key: string, entry: Entry): void {
    this.remove(key)
    this.entries.set(key, entry)
    this.rows += entry.rows.length
    while (this.entries.size > RESULT_CACHE_ENTRIES || this.rows > RESULT_CACHE_ROWS) this.remove(this.entries.keys().next().value as string)
  }

  private remove(key: string): void {
    const old = this.entries.get(key)
    if (!old) return
    this.entries.delete(key)
    this.rows -= old.rows.length
  }
}

interface PerDatabase {
  kept: KeptResults
  generation: GenerationReader
}

const caches = new WeakMap<Database, PerDatabase>()

function cacheFor(db: Database): PerDatabase {
  let cache = caches.get(db)
  if (!cache) caches.set(db, (cache = { kept: new KeptResults(), generation: new GenerationReader(db) }))
  return cache
}

function cacheKey(query: string, plan: SearchPlan, perPage: boolean): string {
  return JSON.stringify([query, perPage, plan.limit, plan.offset, plan.boosts, plan.excludes, plan.language, plan.symbolKind, plan.sourceId, plan.pageType, plan.tag])
}

/**
 * Keyword search, one row per page, ranked by BM25: from the cache when nothing changed since
 * the same question was answered. The generation is read before the ranking runs, so a kept
 * list is never older than its tag (a write that commits in between makes it newer, which the
 * next reader, seeing the new generation, does not use).
 */
export function keywordPageRows(db: Database, plan: SearchPlan, query: string): Promise<ResultRow[]> {
  return keptKeywordRows(db, plan, query, true)
}

/** The same for hybrid search's keyword side: every matching chunk, not one per page. */
export function keywordChunkRows(db: Database, plan: SearchPlan, query: string): Promise<ResultRow[]> {
  return keptKeywordRows(db, plan, query, false)
}

async function keptKeywordRows(db: Database, plan: SearchPlan, query: string, perPage: boolean): Promise<ResultRow[]> {
  const cache = cacheFor(db)
  const key = cacheKey(query, plan, perPage)
  const generation = await cache.generation.read()
  const kept = cache.kept.get(key, generation)
  if (kept) return kept
  const rows = await withSearchTransaction(db, (tx) => keywordRows(tx, plan, { query, match: 'any', perPage }))
  cache.kept.set(key, { generation, rows })
  return rows
}

async function readGeneration(db: Database): Promise<string> {
  const { rows } = await db.query<{ generation: string }>('SELECT generation::text AS generation FROM search_generation WHERE id = 1', [], { prepared: true })
  return rows[0]?.generation ?? '0'
}

/**
 * Reads of the search generation, shared by the callers that ask while one is under way. A
 * caller may only use a read that began after it asked (an earlier one can miss a commit the
 * caller already saw), so a caller arriving during a read waits for the next one, which then
 * answers everyone who queued behind it: under many concurrent searches the database sees
 * about one read per round trip instead of one per search.
 */
export class GenerationReader {
  private inFlight: Promise<string> | undefined
  private queued: Promise<string> | undefined

  constructor(private readonly db: Database) {}

  read(): Promise<string> {
    if (this.inFlight === undefined) return this.begin()
    this.queued ??= this.inFlight.then(
      () => this.beginQueued(),
      () => this.beginQueued(),
    )
    return this.queued
  }

  private beginQueued(): Promise<string> {
    this.queued = undefined
    return this.begin()
  }

  private begin(): Promise<string> {
    const read = readGeneration(this.db).finally(() => {
      if (this.inFlight === read) this.inFlight = undefined
    })
    this.inFlight = read
    return read
  }
}
