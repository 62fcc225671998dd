import type { IngestionEvent } from './event.js'

/**
 * Version of the source contract below. A plugin manifest whose `api_version` differs is
 * refused: the contract only changes in a way that breaks sources, so there is no range.
 */
export const INGESTION_SOURCE_API_VERSION = 1

export interface IngestionLogger {
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/** A page as a source may read it back (for example to skip content already in the brain). */
export interface IngestionPageView {
  slug: string
  title: string
  contentHash: string
}

/**
 * The slice of the brain a source may touch: reads only. Sources write by emitting events,
 * never through the engine, so every write goes through validation, dedupe and the queue.
 */
export interface IngestionEngine {
  getPage(slug: string): Promise<IngestionPageView | null>
}

/** What the daemon did with an emitted event. */
export type EmitOutcome =
  | { status: 'dispatched'; jobId: string; contentHash: string }
  | { status: 'duplicate'; contentHash: string }
  | { status: 'rate_limited'; retryAfterMs: number }
  | { status: 'invalid'; code: string; message: string }

export interface IngestionSourceContext {
  logger: IngestionLogger
  engine: IngestionEngine
  /** Fires when the daemon stops the source; `run` should return soon after. */
  signal: AbortSignal
  /** The daemon's clock: use it (not Date.now or setTimeout) so tests can drive time. */
  now(): number
  sleep(ms: number): Promise<void>
  /**
   * Hands an event to the pipeline (validate → dedupe → rate-limit → dispatch). Resolves once the
   * `ingest_capture` job is durably submitted, or with the reason it was not.
   */
  emit(event: IngestionEvent): Promise<EmitOutcome>
  /** Reports a problem that did not stop the source; shown on the daemon's health surface. */
  warn(message: string): void
}

/**
 * An ingestion source. `run` starts watching and returns when `ctx.signal` fires; if it throws,
 * the daemon records the error and runs it again after a backoff.
 */
export interface IngestionSource {
  /** Stable id: names the source in health output, logs and page provenance. */
  readonly id: string
  run(ctx: IngestionSourceContext): Promise<void>
}

/** What a plugin package's entry module exports (default export or named `createSource`). */
export type IngestionSourceFactory = (options: Record<string, unknown>) => IngestionSource | Promise<IngestionSource>
