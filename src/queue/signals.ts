import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { Database } from '../db/index.js'
import { JOB_CHANNEL } from './boss-sql.js'
import type { JobProgress } from './types.js'

/** What processes tell each other about jobs. */
export type JobEvent =
  | { e: 'new'; name: string }
  /** These jobs finished, or changed state in a way a waiter should re-read. */
  | { e: 'done'; ids: string[] }
  /** `attempt`: the run (retry count) that reported it, when it came through the database. */
  | { e: 'progress'; id: string; attempt?: number; p: JobProgress }
  | { e: 'cancel'; id: string }
  /** A process checking that its own LISTEN still works. */
  | { e: 'ping'; token: string }
  /**
   * This process ran the job to an end it could not store (the database refused the write): its
   * waiters in this process hear the outcome here instead of waiting for a record that may never
   * come. Never sent to other processes.
   */
  | { e: 'unrecorded'; id: string; completed: boolean; output: Record<string, unknown> }

type JobEventListener = (event: JobEvent) => void
type UnrecordedOutcome = Extract<JobEvent, { e: 'unrecorded' }>

function parseEvent(payload: string): JobEvent | null {
  try {
    const value = JSON.parse(payload) as Partial<JobEvent> | null
    if (value === null || typeof value !== 'object' || typeof value.e !== 'string') return null
    return value as JobEvent
  } catch {
    return null
  }
}

/**
 * Wake-ups and completion news. When other processes can share the database the events travel
 * by LISTEN/NOTIFY (one listening connection per process and database); on the embedded
 * engine everything runs in this process, so an in-process emitter carries them.
 */
export class JobSignals {
  readonly crossProcess: boolean
  private readonly emitter = new EventEmitter()
  private subscribers = 0
  private unlisten: (() => Promise<void>) | null = null
  private listening: Promise<void> | null = null
  private pendingPing: string | null = null
  /**
   * Outcomes this process could not store, kept until they are: a waiter that begins after the
   * news (its job ran before it subscribed) still hears it.
   */
  private readonly unrecorded = new Map<string, UnrecordedOutcome>()

  constructor(private readonly db: Database) {
    this.crossProcess = db.capabilities.multiProcess
    this.emitter.setMaxListeners(0)
  }

  /** Sends an event: NOTIFY across processes, or straight to this process's listeners. */
  async publish(event: JobEvent): Promise<void> {
    if (this.crossProcess) await this.db.query('SELECT pg_notify($1, $2)', [JOB_CHANNEL, JSON.stringify(event)])
    else this.emitLocal(event)
  }

  /** Delivers to this process's listeners only, on either engine. */
  deliverHere(event: JobEvent): void {
    if (event.e === 'unrecorded') this.unrecorded.set(event.id, event)
    this.emitLocal(event)
  }

  /** The outcome of a job this process ran but could not store yet, if any. */
  unrecordedOutcome(id: string): UnrecordedOutcome | undefined {
    return this.unrecorded.get(id)
  }

  /** These jobs' outcomes are stored now: the record speaks for them again. */
  recorded(ids: readonly string[]): void {
    for (const id of ids) this.unrecorded.delete(id)
  }

  /** For statements that already NOTIFY when cross-process: delivers in-process otherwise. */
  deliverLocally(event: JobEvent): void {
    if (!this.crossProcess) this.emitLocal(event)
  }

  async subscribe(listener: JobEventListener): Promise<() => Promise<void>> {
    this.emitter.on('event', listener)
    this.subscribers++
    if (this.crossProcess) {
      try {
        await this.ensureListening()
      } catch (err) {
        this.emitter.off('event', listener)
        this.subscribers--
        throw err
      }
    }
    let active = true
    return async () => {
      if (!active) return
      active = false
      this.emitter.off('event', listener)
      if (--this.subscribers === 0) await this.stopListening()
    }
  }

  /** Re-issues LISTEN after the connection carrying it was lost (the driver drops it silently). */
  async resubscribe(): Promise<void> {
    if (!this.crossProcess || this.subscribers === 0) return
    await this.stopListening()
    await this.ensureListening()
  }

  /**
   * Checks the notification path end to end: if the ping sent last time never came back, the
   * LISTEN connection was lost (a server restart drops it silently) and is re-established.
   * Meant to run on a heartbeat; a no-op without cross-process signals or subscribers.
   */
  async checkListening(): Promise<boolean> {
    if (!this.crossProcess || this.subscribers === 0) return true
    const healthy = this.pendingPing === null
    if (!healthy) await this.resubscribe()
    this.pendingPing = randomUUID()
    await this.publish({ e: 'ping', token: this.pendingPing })
    return healthy
  }

  private emitLocal(event: JobEvent): void {
    // Delivered after the caller's statement settles, as a NOTIFY would be.
    queueMicrotask(() => this.emitter.emit('event', event))
  }

  private ensureListening(): Promise<void> {
    this.listening ??= this.db
      .listen(JOB_CHANNEL, (payload) => {
        const event = parseEvent(payload)
        if (event?.e === 'ping') {
          if (event.token === this.pendingPing) this.pendingPing = null
        } else if (event) this.emitter.emit('event', event)
      })
      .then(
        (unlisten) => {
          this.unlisten = unlisten
        },
        (err: unknown) => {
          this.listening = null
          throw err
        },
      )
    return this.listening
  }

  private async stopListening(): Promise<void> {
    const pending = this.listening
    this.listening = null
    if (pending) await pending.catch(() => undefined)
    const unlisten = this.unlisten
    this.unlisten = null
    if (unlisten) await unlisten().catch(() => undefined)
  }
}

const shared = new WeakMap<Database, JobSignals>()

/** One JobSignals per database handle, so a façade and a worker in one process share a LISTEN. */
export function signalsFor(db: Database): JobSignals {
  let signals = shared.get(db)
  if (!signals) {
    signals = new JobSignals(db)
    shared.set(db, signals)
  }
  return signals
}
