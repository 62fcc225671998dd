import type { Database } from '../db/index.js'

/**
 * Engine time one transaction of an import may take, where statements take turns, while other
 * commands have been waiting for the engine lately: one that arrives then waits about this long.
 */
const CONTENDED_PART_MS = 50
/**
 * Engine time of a transaction while nothing else waits. Each transaction pays a fixed cost
 * (the statement-level triggers, which grow with the brain for code pages, a few reads of
 * settings, the commit): a batch of notes stays one transaction, a batch of code files or a
 * mailbox part a few, which costs a few per cent of an import; a command that comes out of the
 * blue waits at most this long before the writer notices it.
 */
const CALM_PART_MS = 1000
/** How long after another command last used the engine between two parts the parts stay small. */
const CONTENDED_FOR_MS = 1000
/** The weight of the first part, before any part has been timed. */
const FIRST_PART_WEIGHT = 64
/** A part is at most this many times the weight of the largest one timed, so cheap small parts do not make the next a long one. */
const PART_GROWTH = 4
/** A writer lets others in at most this long at a time, so a steady stream of other commands cannot stop an import. */
const STAND_ASIDE_MAX_MS = 250
/** How much each timed part counts against the ones before it in the cost estimate. */
const FORGET = 0.8

/**
 * How a batch of new pages is cut into transactions. On the embedded engine a statement runs on
 * the JavaScript thread and a transaction holds the engine until it commits, so a command that
 * arrives meanwhile (a search the resident service relays) waits for the whole of it; a batch of
 * a hundred notes or a mailbox part of hundreds of messages is a few hundred milliseconds to
 * seconds. There the batch goes in parts, each one transaction sized by the engine time the
 * parts before took (a fixed cost per transaction and a cost per unit of weight, a page and its
 * chunks): about CALM_PART_MS while the writer is alone, CONTENDED_PART_MS for a while after
 * another command used the engine, and the event loop goes round between two parts so such a
 * command gets its turn. Each part commits whole, so an import cut short keeps what it committed
 * and a re-run writes the rest once. A server runs other sessions beside the write, so there a
 * batch stays one transaction.
 */
class WritePace {
  // Exponentially weighted sums over timed parts: count, weight, ms, weight², weight·ms.
  private n = 0
  private w = 0
  private ms = 0
  private ww = 0
  private wms = 0
  private largest = 0
  private waitedAt = Number.NEGATIVE_INFINITY

  constructor(private readonly db: Database) {}

  /** Whether batches are cut at all: only where statements take turns. */
  get paced(): boolean {
    return !this.db.capabilities.parallelStatements
  }

  /** How many of `weights` (the rest of a batch's pages' weights, in order) the next transaction takes: at least one. */
  nextPart(weights: readonly number[]): number {
    if (!this.paced) return weights.length
    const target = performance.now() - this.waitedAt < CONTENDED_FOR_MS ? CONTENDED_PART_MS : CALM_PART_MS
    const cost = this.cost()
    // However large the fixed cost comes out, at least half the target goes to pages: parts of a
    // page or two would pay it over and over and leave the import crawling behind other commands.
    const room = cost === null ? 0 : Math.max(target - cost.fixed, target / 2)
    const limit = cost === null ? FIRST_PART_WEIGHT : Math.min(room / cost.perWeight, Math.max(this.largest, FIRST_PART_WEIGHT) * PART_GROWTH)
    // The rest cut into equal parts, rather than full parts and a small one left over that pays the fixed cost alone.
    const rest = weights.reduce((sum, w) => sum + w, 0)
    const share = rest / Math.max(1, Math.ceil(rest / Math.max(1, limit)))
    let total = 0
    let count = 0
    for (const weight of weights) {
      if (count > 0 && total + weight / 2 > share) break
      total += weight
      count++
    }
    return count
  }

  /** Told how long a transaction of this weight held the engine. */
  took(weight: number, ms: number): void {
    this.largest = Math.max(this.largest, weight)
    this.n = this.n * FORGET + 1
    this.w = this.w * FORGET + weight
    this.ms = this.ms * FORGET + ms
    this.ww = this.ww * FORGET + weight * weight
    this.wms = this.wms * FORGET + weight * ms
  }

  /** A least-squares line through the timed parts: ms = fixed + perWeight · weight. */
  private cost(): { fixed: number; perWeight: number } | null {
    if (this.n === 0) return null
    const meanW = this.w / this.n
    const meanMs = this.ms / this.n
    const variance = this.ww / this.n - meanW * meanW
    const slope = variance > 1 ? (this.wms / this.n - meanW * meanMs) / variance : 0
    // Parts all of one size (or a fit that makes no sense) say only the cost per weight of that size.
    if (!(slope > 0) || slope * meanW > meanMs) return { fixed: 0, perWeight: meanMs / Math.max(1, meanW) }
    return { fixed: meanMs - slope * meanW, perWeight: slope }
  }

  /**
   * Between two parts: lets the event loop go round, so a command that arrived meanwhile (a timer,
   * a socket) runs. Parts committed one after the other settle as promise reactions only, which
   * run before any timer or socket: without the turn, such a command would not even be read
   * before the whole batch is written. A command that used the engine in that turn makes the
   * next parts small for a while, and the writer goes on letting the loop round while others keep
   * starting calls, so a command spread over several turns finishes before the next part.
   */
  async letOthersIn(): Promise<void> {
    const begun = this.db.callsBegun
    if (!this.paced || begun === undefined) return
    const started = performance.now()
    for (;;) {
      const before = begun()
      await new Promise<void>((resolve) => setImmediate(resolve))
      if (begun() === before) return
      const now = performance.now()
      this.waitedAt = now
      if (now - started >= STAND_ASIDE_MAX_MS) return
    }
  }
}

const paces = new WeakMap<Database, WritePace>()

/** The pace of writes to this database, kept across batches so each starts from the last measure. */
export function writePaceOf(db: Database): WritePace {
  let pace = paces.get(db)
  if (!pace) paces.set(db, (pace = new WritePace(db)))
  return pace
}
