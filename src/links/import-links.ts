/**
 * Citation links written by the import of a markdown page, inside its transaction: the page's
 * previous citation links are replaced by those of its new text.
 */
import type { SqlExecutor } from '../db/types.js'
import { pageCitations } from './citations.js'
import { addCitationLinks, deleteCitationLinks, type MarkdownPageRef } from './repository.js'
import { autoLinkEnabled } from './reconcile.js'

export async function linkImportedMarkdown(tx: SqlExecutor, page: MarkdownPageRef, text: { compiledTruth: string; timeline: string }, isNewPage: boolean): Promise<void> {
  const citations = pageCitations(text.compiledTruth, text.timeline)
  if (citations.length === 0 && isNewPage) return
  if (!(await autoLinkEnabled(tx))) return
  if (!isNewPage) await deleteCitationLinks(tx, page)
  await addCitationLinks(tx, page, citations)
}
