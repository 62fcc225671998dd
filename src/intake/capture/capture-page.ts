import type { Config } from '../../config/index.js'
import type { Database } from '../../db/index.js'
import type { PutPageResult } from '../../pages/index.js'
import type { Logger } from '../../util/index.js'
import { defaultCaptureSlug, shapeCapture } from './shape.js'

export interface CaptureRequest {
  /** The raw content as the user gave it. */
  content: string
  slug?: string
  type?: string
  /** Provenance: where the content came from. */
  source?: string
  /** When the capture happened; it fixes the default slug's date and `captured_at`. */
  capturedAt: Date
  noEmbed?: boolean
}

export interface CaptureReceipt extends PutPageResult {
  title: string
  wrapped: boolean
}

/** Shapes captured content and writes it through put_page: the work behind `brain capture`. */
export async function capturePage(brain: { db: Database; config: Config; logger: Logger }, request: CaptureRequest): Promise<CaptureReceipt> {
  const { putPage } = await import('../../pages/index.js')
  const { readConfigValue } = await import('../../config/index.js')
  const { activeEmbeddingProvider } = await import('../../models/index.js')
  const shaped = shapeCapture(request.content, { type: request.type, capturedVia: request.source ?? 'cli', now: request.capturedAt })
  const slug = request.slug ?? defaultCaptureSlug(request.content.trim(), request.capturedAt)
  const result = await putPage(
    {
      db: brain.db,
      logger: brain.logger,
      repoPath: await readConfigValue(brain.db, 'sync.repo_path'),
      remote: false,
      embedder: request.noEmbed ? null : await activeEmbeddingProvider(brain.db, brain.config),
      maxFences: brain.config.import.maxFencesPerPage,
    },
    { slug, content: shaped.markdown, sourceUri: request.source ?? null, sourceKind: 'capture' },
  )
  return { ...result, title: shaped.title, wrapped: shaped.wrapped }
}
