import type { PGlite } from '@electric-sql/pglite'
import { DiskError, diskProblemOf, isSqlStateError } from '../errors/index.js'

/** One PGLite instance, whose retirement rejects every call still waiting on it. */
interface PgliteGeneration {
  readonly pg: PGlite
  /**
   * Races a call on this instance against its retirement; after a full-disk error the instance is
   * asked `probe` (by default a trivial query), and retired if it does not answer. Inside a
   * transaction the probe must go through the transaction: a query outside it would wait for it.
   */
  settle<T>(call: Promise<T>, probe?: () => Promise<unknown>): Promise<T>
}

interface LiveGeneration extends PgliteGeneration {
  retired: boolean
  retire(err: unknown): void
}

/** How long a trivial query may take before an instance that reported a full disk counts as wedged. */
const PROBE_MS = 5000

/** PostgreSQL's in_failed_sql_transaction: how a working engine refuses a statement in an aborted transaction. */
const ABORTED_TRANSACTION = '25P02'

/**
 * Whether the instance still answers as a working engine does. A full data file (a table that
 * cannot grow) leaves PGLite working, and reads should go on there; an instance that stopped
 * answering is retired, and so is one that answers a trivial query with any error but an aborted
 * transaction's: after a WAL write that failed part-way PGLite can keep its unnamed portal active
 * and then refuse every statement ("cannot drop active portal"), forever.
 */
async function answers(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), PROBE_MS)))
  try {
    return await Promise.race([
      probe().then(
        () => true,
        (err: unknown) => isSqlStateError(err) && err.code === ABORTED_TRANSACTION,
      ),
      late,
    ])
  } finally {
    clearTimeout(timer)
  }
}

interface Listener {
  channel: string
  onPayload: (payload: string) => void
  unsubscribe: (() => Promise<void>) | null
}

interface ReplaceableOptions {
  /** Opens a fresh instance on the same data directory; PostgreSQL's recovery replays what was committed. */
  reopen: () => Promise<PGlite>
  /** Runs before a reopen; throws (disk_full) while there is too little room for recovery to finish. */
  beforeReopen: () => void
}

function retiredError(cause: unknown): DiskError {
  return new DiskError(
    'disk_full',
    'The disk filled up under the embedded brain in the middle of a write, so the database engine was set aside; this call did not finish. Committed writes are kept.',
    { hint: 'Free some space and run the command again: the brain reopens by itself and replays what was committed.', cause },
  )
}

/**
 * PGLite after PostgreSQL failed to create a WAL segment on a full disk answers that one call
 * with SQLSTATE 53100 and then never settles another promise: every later call, `close` included,
 * waits forever. The free-space check keeps writes out of that state, but a disk filled by
 * someone else between the check and the write still gets there. So after a full-disk error the
 * instance is asked a trivial question; if it does not answer it is retired: calls waiting on it
 * are rejected, it is never called again, and the next call opens a fresh instance on the same
 * directory once there is room for recovery to run.
 */
export class ReplaceablePglite {
  private live: LiveGeneration | null
  private reopening: Promise<LiveGeneration> | null = null
  /** A replacement under way (see replace): closing waits for it. */
  private replacing: Promise<LiveGeneration> | null = null
  private readonly listeners = new Set<Listener>()
  /** Calls begun on the live instance and not yet settled. */
  private running = 0

  constructor(
    first: PGlite,
    private readonly options: ReplaceableOptions,
  ) {
    this.live = this.generation(first)
  }

  /** Runs `use` on the live instance, opening a fresh one first if the last was retired. */
  async run<T>(use: (generation: PgliteGeneration) => Promise<T>): Promise<T> {
    const generation = await this.current()
    this.running++
    try {
      return await generation.settle(use(generation))
    } finally {
      this.running--
    }
  }

  /** No call under way and no instance being opened: a replacement would interrupt nothing. */
  get idle(): boolean {
    return this.running === 0 && this.reopening === null && this.live !== null && !this.live.retired
  }

  /**
   * Closes the live instance and puts the one `open` opens in its place (the listeners subscribed
   * again), only while idle; calls made meanwhile wait for the new instance. False when not idle.
   * Should the new instance not open, the next call reopens the usual way.
   */
  async replace(open: () => Promise<PGlite>): Promise<boolean> {
    const live = this.live
    if (!this.idle || live === null) return false
    this.options.beforeReopen()
    this.live = null
    const replacing = (async () => {
      await live.pg.close()
      return this.subscribed(this.generation(await open()))
    })()
    this.reopening = this.replacing = replacing
    try {
      await replacing
      return true
    } finally {
      this.reopening = this.replacing = null
    }
  }

  /** Subscribes on the live instance and again on every instance that replaces it. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const listener: Listener = { channel, onPayload, unsubscribe: null }
    listener.unsubscribe = await this.run((generation) => generation.pg.listen(channel, onPayload))
    this.listeners.add(listener)
    return async () => {
      this.listeners.delete(listener)
      if (this.live && !this.live.retired) await listener.unsubscribe?.()
    }
  }

  /** Closes the live instance; a retired one is left alone, since its close would never return. */
  async close(): Promise<void> {
    await this.replacing?.catch(() => undefined)
    const live = this.live
    this.live = null
    if (live && !live.retired) await live.settle(live.pg.close())
  }

  private async current(): Promise<LiveGeneration> {
    if (this.live && !this.live.retired) return this.live
    if (!this.reopening) {
      this.options.beforeReopen()
      this.reopening = this.options
        .reopen()
        .then((pg) => this.subscribed(this.generation(pg)))
        .finally(() => {
          this.reopening = null
        })
    }
    return this.reopening
  }

  /** Subscribes every listener on a new instance and makes it the live one. */
  private async subscribed(generation: LiveGeneration): Promise<LiveGeneration> {
    for (const listener of this.listeners) listener.unsubscribe = await generation.pg.listen(listener.channel, listener.onPayload)
    this.live = generation
    return generation
  }

  private generation(pg: PGlite): LiveGeneration {
    // One rejection per waiting call, dropped when the call settles. A single promise of the
    // generation raced against every call would keep a reaction, and with it the call's result,
    // for each call ever made: a service held every row it had ever returned.
    const waiting = new Set<(err: unknown) => void>()
    let retiredWith: DiskError | null = null
    const generation: LiveGeneration = {
      pg,
      retired: false,
      retire: (err) => {
        if (generation.retired) return
        generation.retired = true
        retiredWith = retiredError(err)
        for (const reject of waiting) reject(retiredWith)
        waiting.clear()
      },
      settle: async <T>(call: Promise<T>, probe: () => Promise<unknown> = () => pg.query('SELECT 1')): Promise<T> => {
        let reject: (err: unknown) => void = () => undefined
        const gone = new Promise<never>((_, r) => (reject = r))
        if (retiredWith) reject(retiredWith)
        else waiting.add(reject)
        try {
          return await Promise.race([call, gone])
        } catch (err) {
          if (!generation.retired && diskProblemOf(err) === 'full') {
            probing ??= answers(probe).finally(() => (probing = null))
            if (!(await probing)) generation.retire(err)
          }
          throw err
        } finally {
          waiting.delete(reject)
        }
      },
    }
    let probing: Promise<boolean> | null = null
    return generation
  }
}
