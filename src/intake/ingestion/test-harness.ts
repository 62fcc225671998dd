/**
 * The publisher test harness for ingestion sources (`brain/ingestion/test-harness`): run a
 * source against a fake clock and an in-memory event bus, then assert on what it emitted.
 */
import { FakeClock, settle } from './clock.js'
import type { EmitOutcome, IngestionEngine, IngestionSource, IngestionSourceContext } from './contract.js'
import { computeContentHash, validateIngestionEvent, type IngestionEvent } from './event.js'

export { FakeClock } from './clock.js'

/** A field matcher: the value itself, a RegExp for strings, or a predicate. */
type FieldMatcher = unknown
type EventMatcher = Partial<Record<keyof IngestionEvent, FieldMatcher>> | ((event: IngestionEvent) => boolean)

class InMemoryEventBus {
  readonly events: IngestionEvent[] = []
  private readonly listeners = new Set<(event: IngestionEvent) => void>()

  publish(event: IngestionEvent): void {
    this.events.push(event)
    for (const listener of this.listeners) listener(event)
  }

  subscribe(listener: (event: IngestionEvent) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}

function matchesValue(expected: unknown, actual: unknown): boolean {
  if (expected instanceof RegExp) return typeof actual === 'string' && expected.test(actual)
  if (typeof expected === 'function') return Boolean((expected as (v: unknown) => unknown)(actual))
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false
    return Object.entries(expected).every(([k, v]) => matchesValue(v, (actual as Record<string, unknown>)[k]))
  }
  return Object.is(expected, actual)
}

function eventMatches(matcher: EventMatcher, event: IngestionEvent): boolean {
  return typeof matcher === 'function' ? matcher(event) : matchesValue(matcher, event)
}

/** An engine that refuses every use: a source under test must not reach into the brain. */
export function throwingEngineProxy(): IngestionEngine {
  return new Proxy({} as IngestionEngine, {
    get(_target, property) {
      throw new Error(`IngestionTestHarness: the source touched engine.${String(property)}; sources write by emitting events, and the harness engine refuses every access.`)
    },
  })
}

interface HarnessRun {
  /** What `run` threw before it was stopped, or null. */
  readonly failure: unknown
  /** Aborts the source's signal and waits for `run` to return; rethrows what it threw before that. */
  stop(): Promise<void>
}

export class IngestionTestHarness {
  readonly clock: FakeClock
  readonly bus = new InMemoryEventBus()
  readonly warnings: string[] = []
  readonly logs: Array<{ level: string; message: string }> = []
  readonly engine: IngestionEngine = throwingEngineProxy()
  private jobCounter = 0

  constructor(options: { start?: Date | number } = {}) {
    this.clock = new FakeClock(options.start ?? Date.UTC(2026, 0, 1))
  }

  get events(): readonly IngestionEvent[] {
    return this.bus.events
  }

  /** The context a daemon would give the source; emitted events are validated, then published on the bus. */
  context(signal: AbortSignal = new AbortController().signal): IngestionSourceContext {
    const log = (level: string) => (message: string) => void this.logs.push({ level, message })
    return {
      logger: { info: log('info'), warn: log('warn'), error: log('error') },
      engine: this.engine,
      signal,
      now: () => this.clock.now(),
      sleep: (ms) => this.clock.sleep(ms, signal),
      emit: async (raw): Promise<EmitOutcome> => {
        let event: IngestionEvent
        try {
          event = validateIngestionEvent(raw)
        } catch (err) {
          const e = err as { code?: string; message: string }
          return { status: 'invalid', code: e.code ?? 'invalid', message: e.message }
        }
        this.bus.publish(event)
        return { status: 'dispatched', jobId: `harness-job-${++this.jobCounter}`, contentHash: computeContentHash(event) }
      },
      warn: (message) => void this.warnings.push(message),
    }
  }

  /** Starts `source.run` in the background. */
  run(source: IngestionSource): HarnessRun {
    const controller = new AbortController()
    // Only a failure before stop() is the source's fault; one caused by the abort is not.
    let failure: { error: unknown } | null = null
    const done = source.run(this.context(controller.signal)).catch((error: unknown) => {
      if (!controller.signal.aborted) failure = { error }
    })
    return {
      get failure() {
        return failure?.error ?? null
      },
      stop: async () => {
        controller.abort(new Error('harness stop'))
        await done
        if (failure) throw failure.error
      },
    }
  }

  /** Moves the fake clock forward, running every timer that falls due. */
  advance(ms: number): Promise<void> {
    return this.clock.advance(ms)
  }

  /**
   * Resolves with the first emitted event matching `matcher`, waiting (real time, default 2 s)
   * for one to arrive; rejects listing what was emitted.
   */
  async expectEvent(matcher: EventMatcher, options: { timeoutMs?: number } = {}): Promise<IngestionEvent> {
    const deadline = Date.now() + (options.timeoutMs ?? 2000)
    for (;;) {
      const found = this.bus.events.find((e) => eventMatches(matcher, e))
      if (found) return found
      if (Date.now() > deadline) {
        const seen = this.bus.events.map((e) => `${e.content_type} ${e.source_uri ?? ''} ${JSON.stringify(e.content.slice(0, 40))}`)
        throw new Error(`expectEvent: no emitted event matched ${describe(matcher)}; emitted (${seen.length}): ${seen.join(' | ') || 'none'}`)
      }
      await settle()
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }

  /** Throws when an event matching `matcher` was emitted. */
  expectNoEvent(matcher: EventMatcher): void {
    const found = this.bus.events.find((e) => eventMatches(matcher, e))
    if (found) throw new Error(`expectNoEvent: an event matched ${describe(matcher)}: ${JSON.stringify(found).slice(0, 200)}`)
  }
}

function describe(matcher: EventMatcher): string {
  return typeof matcher === 'function' ? 'the predicate' : JSON.stringify(matcher, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))
}
