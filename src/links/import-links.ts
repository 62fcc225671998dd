/**
 * The links written by the import of a markdown page, inside its transaction. Explicit links
 * (the author's own wikilinks, embeds, markdown and property links) are replaced on every write,
 * remote ones included; derived links (code citations, entity mentions) only on trusted writes
 * with `auto_link` on.
 */
import type { SqlExecutor } from '../db/index.js'
import { pageCitations } from './citations.js'
import { entityNames, entityNamesByPosition, entityTypes, replaceMentionLinks } from './mentions.js'
import { noteLinks } from './note-links.js'
import { insertNoteLinksOfNewPages, replaceNoteLinks } from './note-repository.js'
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
  /** What a batch of writes read once for all its pages (see derivedLinkSettings). */
  settings?: DerivedLinkSettings
}

/** The settings derived links are written by: config `auto_link` and the entity names mentions match. */
export interface DerivedLinkSettings {
  autoLink: boolean
  names: ReadonlyMap<string, number>
}

/** Reads the derived-link settings once, for a batch of pages written in one transaction. */
export async function derivedLinkSettings(tx: SqlExecutor): Promise<DerivedLinkSettings> {
  const autoLink = await autoLinkEnabled(tx)
  return { autoLink, names: autoLink ? await entityNames(tx) : new Map() }
}

export async function linkImportedMarkdown(tx: SqlExecutor, page: MarkdownPageRef, text: ImportedMarkdown, options: LinkImportOptions): Promise<void> {
  await replaceNoteLinks(tx, page, noteLinks(text.content, text.frontmatter, page.slug), options.isNewPage)
  if (!options.derived || !(options.settings?.autoLink ?? (await autoLinkEnabled(tx)))) return
  const citations = pageCitations(text.compiledTruth, text.timeline)
  if (!options.isNewPage) await deleteCitationLinks(tx, page)
  if (citations.length > 0) await addCitationLinks(tx, page, citations)
  await replaceMentionLinks(tx, page, text.content, options.settings?.names ?? (await entityNames(tx)), { isNewPage: options.isNewPage })
}

/**
 * The links of markdown pages written together that did not exist before (a bulk import): the
 * explicit links of all of them in one statement, then each page's derived links, as
 * linkImportedMarkdown writes them for one new page. `settings` were read before the pages were
 * written; a page after an entity page of the same batch sees that entity's names too, as it
 * would have written one at a time.
 */
export async function linkNewMarkdownPages(
  tx: SqlExecutor,
  pages: ReadonlyArray<{ page: MarkdownPageRef; type: string; text: ImportedMarkdown }>,
  options: { derived: boolean; settings: DerivedLinkSettings },
): Promise<void> {
  await insertNoteLinksOfNewPages(
    tx,
    pages.map(({ page, text }) => ({ page, links: noteLinks(text.content, text.frontmatter, page.slug) })),
  )
  if (!options.derived || !options.settings.autoLink) return
  const types = new Set((await entityTypes(tx)).map((t) => t.toLowerCase()))
  let names = options.settings.names
  let namesBefore: ((pageId: number) => Map<string, number>) | null = null
  let afterEntity = false
  for (const { page, type, text } of pages) {
    if (afterEntity) {
      namesBefore ??= await entityNamesByPosition(tx)
      names = namesBefore(page.id)
      afterEntity = false
    }
    const citations = pageCitations(text.compiledTruth, text.timeline)
    if (citations.length > 0) await addCitationLinks(tx, page, citations)
    await replaceMentionLinks(tx, page, text.content, names, { isNewPage: true })
    if (types.has(type.toLowerCase())) afterEntity = true
  }
}
