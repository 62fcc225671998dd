import { setMaxListeners } from 'node:events'
import { serializeError } from '../../errors/index.js'
import type { Logger } from '../../util/index.js'
import { systemClock, type Clock } from './clock.js'
import type { EmitOutcome, IngestionEngine, IngestionSource, IngestionSourceContext } from './contract.js'
import { DEDUPE_MAX_ENTRIES, DedupeWindow } from './dedupe.js'
import { computeContentHash, validateIngestionEvent, type IngestionEvent } from './event.js'
import { KeyedRateLimiter } from './rate-limit.js'

type SourceState = 'starting' | 'running' | 'backoff' | 'stopped'

/** One source's line on the daemon's health surface. */
export interface SourceHealth {
  id: string
  state: SourceState
  emitted: number
  dispatched: number
  duplicates: number
  invalid: number
  rate_limited: number
  /** Times `run` threw. */
  failures: number
  consecutive_failures: number
  last_error: string | null
  last_warning: string | null
  last_event_at: string | null
  next_restart_at: string | null
}

interface IngestionDaemonOptions {
  /** Submits the `ingest_capture` job; resolves once it is durably stored. */
  dispatch(event: IngestionEvent, source: IngestionSource): Promise<{ jobId: string }>
  engine: IngestionEngine
  logger: Logger
  clock?: Clock
  /** Per-source rate: `capacity` events per `intervalMs` (default 100 per 10 s). */
  rate?: { capacity: number; intervalMs: number }
  dedupe?: { windowMs: number; maxEntries: number }
  backoff?: { initialMs: number; maxMs: number; resetAfterMs: number }
  onHealthChange?: (health: SourceHealth[]) => void
}

const DEFAULT_BACKOFF = { initialMs: 1000, maxMs: 60_000, resetAfterMs: 60_000 }

interface Supervised {
  source: IngestionSource
  health: SourceHealth
  controller: AbortController
  done: Promise<void>
}

function freshHealth(id: string): SourceHealth {
  return {
    id,
    state: 'starting',
    emitted: 0,
    dispatched: 0,
    duplicates: 0,
    invalid: 0,
    rate_limited: 0,
    failures: 0,
    consecutive_failures: 0,
    last_error: null,
    last_warning: null,
    last_event_at: null,
    next_restart_at: null,
  }
}

/**
 * The ingestion daemon: runs each source under supervision (a source that throws is restarted
 * after an exponential backoff) and passes every emitted event through validate → dedupe by
 * content hash → rate-limit → dispatch.
 */
export class IngestionDaemon {
  private readonly clock: Clock
  private readonly dedupe: DedupeWindow
  private readonly limiter: KeyedRateLimiter
  private readonly backoff: typeof DEFAULT_BACKOFF
  private readonly supervised = new Map<string, Supervised>()
  /** The last hash dispatched per source URI (bounded like the window). */
  private readonly lastHashOfUri = new Map<string, string>()

  constructor(private readonly options: IngestionDaemonOptions) {
    this.clock = options.clock ?? systemClock
    this.dedupe = new DedupeWindow(this.clock, options.dedupe?.windowMs, options.dedupe?.maxEntries)
    this.limiter = new KeyedRateLimiter(this.clock, options.rate?.capacity ?? 100, options.rate?.intervalMs ?? 10_000)
    this.backoff = options.backoff ?? DEFAULT_BACKOFF
  }

  health(): SourceHealth[] {
    return [...this.supervised.values()].map((s) => ({ ...s.health }))
  }

  start(source: IngestionSource): void {
    if (this.supervised.has(source.id)) throw new Error(`ingestion source ${source.id} is already running`)
    const entry: Supervised = { source, health: freshHealth(source.id), controller: new AbortController(), done: Promise.resolve() }
    // Every pending sleep (one per debounced path, say) listens on this signal; that is not a leak.
    setMaxListeners(0, entry.controller.signal)
    this.supervised.set(source.id, entry)
    entry.done = this.supervise(entry)
  }

  async stop(): Promise<void> {
    for (const entry of this.supervised.values()) entry.controller.abort(new Error('daemon stopping'))
    await Promise.all([...this.supervised.values()].map((e) => e.done))
  }

  /** The pipeline for one event; exported for the sources' context and for tests. */
  async handle(source: IngestionSource, raw: IngestionEvent): Promise<EmitOutcome> {
    const health = this.supervised.get(source.id)?.health ?? freshHealth(source.id)
    health.emitted++
    health.last_event_at = new Date(this.clock.now()).toISOString()
    let event: IngestionEvent
    try {
      event = validateIngestionEvent(raw)
    } catch (err) {
      health.invalid++
      this.changed()
      const envelope = serializeError(err)
      this.options.logger.warn(`${source.id}: invalid event: ${envelope.message}`)
      return { status: 'invalid', code: envelope.code, message: envelope.message }
    }
    const contentHash = computeContentHash(event)
    if (this.dedupe.has(contentHash)) {
      health.duplicates++
      this.changed()
      return { status: 'duplicate', contentHash }
    }
    const decision = this.limiter.take(source.id)
    if (!decision.allowed) {
      health.rate_limited++
      this.changed()
      return { status: 'rate_limited', retryAfterMs: decision.retryAfterMs }
    }
    const { jobId } = await this.options.dispatch(event, source)
    // Remembered only once dispatched, so an event whose dispatch failed can be sent again.
    this.dedupe.remember(contentHash)
    if (event.source_uri !== undefined) this.supersede(event.source_uri, contentHash)
    health.dispatched++
    this.changed()
    return { status: 'dispatched', jobId, contentHash }
  }

  /**
   * A file edited from A to B and back to A must be captured again: once B is dispatched for
   * the same URI, A's hash no longer stands for what that URI holds, so it leaves the window.
   */
  private supersede(uri: string, hash: string): void {
    const previous = this.lastHashOfUri.get(uri)
    if (previous !== undefined && previous !== hash) this.dedupe.forget(previous)
    this.lastHashOfUri.delete(uri)
    this.lastHashOfUri.set(uri, hash)
    if (this.lastHashOfUri.size > DEDUPE_MAX_ENTRIES) this.lastHashOfUri.delete(this.lastHashOfUri.keys().next().value as string)
  }

  private contextFor(entry: Supervised): IngestionSourceContext {
    const { source, controller } = entry
    return {
      logger: prefixed(this.options.logger, source.id),
      engine: this.options.engine,
      signal: controller.signal,
      now: () => this.clock.now(),
      sleep: (ms) => this.clock.sleep(ms, controller.signal),
      emit: (event) => this.handle(source, event),
      warn: (message) => {
        entry.health.last_warning = message
        this.options.logger.warn(`${source.id}: ${message}`)
        this.changed()
      },
    }
  }

  private async supervise(entry: Supervised): Promise<void> {
    const { health, controller } = entry
    while (!controller.signal.aborted) {
      health.state = 'running'
      health.next_restart_at = null
      this.changed()
      const startedAt = this.clock.now()
      try {
        await entry.source.run(this.contextFor(entry))
        if (controller.signal.aborted) break
        this.options.logger.info(`${entry.source.id}: source finished`)
        break
      } catch (err) {
        if (controller.signal.aborted) break
        if (this.clock.now() - startedAt >= this.backoff.resetAfterMs) health.consecutive_failures = 0
        health.failures++
        health.consecutive_failures++
        health.last_error = serializeError(err).message
        const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** (health.consecutive_failures - 1))
        health.state = 'backoff'
        health.next_restart_at = new Date(this.clock.now() + delay).toISOString()
        this.options.logger.warn(`${entry.source.id}: source failed (${health.last_error}); restarting in ${delay / 1000}s`)
        this.changed()
        await this.clock.sleep(delay, controller.signal).catch(() => undefined)
      }
    }
    health.state = 'stopped'
    this.changed()
  }

  private changed(): void {
    this.options.onHealthChange?.(this.health())
  }
}

function prefixed(logger: Logger, id: string): Logger {
  return {
    info: (m, f) => logger.info(`${id}: ${m}`, f),
    warn: (m, f) => logger.warn(`${id}: ${m}`, f),
    error: (m, f) => logger.error(`${id}: ${m}`, f),
  }
}
