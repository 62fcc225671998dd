import type { SqlExecutor } from '../db/types.js'
import { recordVersion, versionsCode } from '../history/index.js'
import { lockPageById } from './page-repository.js'
import { serializePage } from './serialize.js'
import type { PageKind } from './types.js'

/**
 * Before a write replaces a page's content, keeps that content as the page's next version, in
 * the write's transaction. Markdown pages always; code pages when `history.version_code` is on.
 */
export async function keepPreviousVersion(tx: SqlExecutor, pageId: number, kind: PageKind): Promise<void> {
  if (kind === 'code' && !(await versionsCode(tx))) return
  const previous = await lockPageById(tx, pageId)
  if (!previous) return
  await recordVersion(tx, {
    pageId,
    sourceId: previous.sourceId,
    slug: previous.slug,
    markdown: serializePage(previous),
    contentHash: previous.contentHash,
    writtenAt: previous.updatedAt,
    writtenVia: previous.writtenVia ?? previous.ingestedVia,
    writtenBy: previous.writtenBy,
  })
}
