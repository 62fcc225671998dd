import { CHUNKER_VERSION } from '../chunking/index.js'
import type { Database } from '../db/index.js'
import { computePageContentHash } from './content-hash.js'
import { recordWrite } from './keep-version.js'
import { addTag, lockPageById, removeTag } from './page-repository.js'
import { frontmatterWithTags } from './serialize.js'

/**
 * Adds or removes one tag of a page. A markdown page's tags are part of its file, so the change
 * is a write like `put_page`'s: the front matter takes the new tags, the content hash is the one
 * importing the exported file computes, and the text it replaces becomes a version. A code
 * page's file is its source, which carries no tags: only the tag list changes. Returns whether
 * the page's tags changed.
 */
export async function changePageTag(db: Database, pageId: number, tag: string, adding: boolean, writtenVia: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await lockPageById(tx, pageId)
    if (!before) return false
    const changed = adding ? await addTag(tx, pageId, tag) : await removeTag(tx, pageId, tag)
    if (!changed || before.pageKind !== 'markdown') return changed
    const tags = adding ? [...before.tags, tag].sort() : before.tags.filter((t) => t !== tag)
    const frontmatter = frontmatterWithTags(before, tags)
    const next = { ...before, tags, frontmatter }
    const contentHash = computePageContentHash({ ...next, language: null, chunkerVersion: CHUNKER_VERSION })
    if (contentHash === before.contentHash) return changed
    const lines = await recordWrite(tx, pageId, next, true)
    await tx.query(
      `UPDATE pages SET frontmatter = $2::jsonb, content_hash = $3, written_via = $4, written_by = NULL,
              lines_added = $5, lines_removed = $6, updated_at = now()
       WHERE id = $1`,
      [pageId, JSON.stringify(frontmatter), contentHash, writtenVia, lines.linesAdded, lines.linesRemoved],
    )
    return changed
  })
}
