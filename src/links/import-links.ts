/**
 * The links written by the import of a markdown page, inside its transaction. Explicit links
 * (the author's own wikilinks, embeds, markdown and property links) are replaced on every write,
 * remote ones included; derived links (code citations, entity mentions) only on trusted writes
 * with `auto_link` on.
 */
import type { SqlExecutor } from '../db/types.js'
import { pageCitations } from './citations.js'
import { entityNames, replaceMentionLinks } from './mentions.js'
import { noteLinks } from './note-links.js'
import { replaceNoteLinks } from './note-repository.js'
import { addCitationLinks, deleteCitationLinks, type MarkdownPageRef } from './repository.js'
import { autoLinkEnabled } from './reconcile.js'

interface ImportedMarkdown {
  /** The file as written, front matter included (line numbers count from its first line). */
  content: string
  frontmatter: Record<string, unknown>
  compiledTruth: string
  timeline: string
}

interface LinkImportOptions {
  isNewPage: boolean
  /** Derive citation and mention links too: false for untrusted (remote) writers. */
  derived: boolean
}

export async function linkImportedMarkdown(tx: SqlExecutor, page: MarkdownPageRef, text: ImportedMarkdown, options: LinkImportOptions): Promise<void> {
  await replaceNoteLinks(tx, page, noteLinks(text.content, text.frontmatter, page.slug), options.isNewPage)
  if (!options.derived || !(await autoLinkEnabled(tx))) return
  const citations = pageCitations(text.compiledTruth, text.timeline)
  if (!options.isNewPage) await deleteCitationLinks(tx, page)
  if (citations.length > 0) await addCitationLinks(tx, page, citations)
  await replaceMentionLinks(tx, page, text.content, await entityNames(tx), { isNewPage: options.isNewPage })
}
