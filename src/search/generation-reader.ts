import type { Database } from '../db/types.js'

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
