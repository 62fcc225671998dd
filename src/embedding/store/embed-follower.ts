import type { Database } from '../../db/index.js'
import { embedAndStore, pendingChunksOfPages } from './embed-chunks.js'
import type { EmbeddingProvider } from '../index.js'
import { serializeError, type ErrorEnvelope } from '../../errors/index.js'

interface EmbedFollowerOptions {
  /** Chunks per embedding call. */
  batchSize: number
  /** Written pages collected before a step starts while the import is still running. */
  pagesPerStep?: number
  signal?: AbortSignal
  onProgress?: (done: number, total: number) => void
}

/**
 * Embeds the chunks of pages as an import writes them, so the model works while files are still
 * read and parsed instead of only after the last one. One step runs at a time; a failing
 * provider stops the follower (the rest stays stale for `brain embed --stale`) and never fails
 * the import.
 */
export class EmbedFollower {
  embedded = 0
  error: ErrorEnvelope | null = null
  private queued: number[] = []
  private running: Promise<void> | undefined
  private found = 0
  private finishing = false

  constructor(
    private readonly db: Database,
    private readonly embedder: EmbeddingProvider,
    private readonly options: EmbedFollowerOptions,
  ) {}

  add(pageId: number): void {
    if (this.error !== null) return
    this.queued.push(pageId)
    if (this.running === undefined && this.queued.length >= (this.options.pagesPerStep ?? 16)) this.step()
  }

  /** Embeds what is left after the import's last page and waits for it. */
  async finish(): Promise<{ embedded: number; error: ErrorEnvelope | null }> {
    this.finishing = true
    while (this.running !== undefined || (this.queued.length > 0 && this.error === null)) {
      if (this.running === undefined) this.step()
      await this.running
    }
    // A cancelled import ends as a cancellation, not as an embedding error.
    this.options.signal?.throwIfAborted()
    this.options.onProgress?.(this.embedded, this.found)
    return { embedded: this.embedded, error: this.error }
  }

  private step(): void {
    const pageIds = this.queued.splice(0)
    this.running = this.embedPages(pageIds)
      .catch((err: unknown) => {
        this.error = serializeError(err)
      })
      .finally(() => {
        this.running = undefined
        if (!this.finishing && this.error === null && this.queued.length >= (this.options.pagesPerStep ?? 16)) this.step()
      })
  }

  private async embedPages(pageIds: number[]): Promise<void> {
    const pending = await pendingChunksOfPages(this.db, pageIds)
    this.found += pending.length
    for (let start = 0; start < pending.length && this.error === null; start += this.options.batchSize) {
      this.options.signal?.throwIfAborted()
      if (this.finishing) this.options.onProgress?.(this.embedded, this.found)
      const batch = await embedAndStore(this.db, this.embedder, pending.slice(start, start + this.options.batchSize), this.options.signal)
      this.embedded += batch.embedded
      if (batch.error) this.error = batch.error
    }
  }
}
