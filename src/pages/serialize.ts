import { stringifyFrontmatter } from '../util/index.js'
import { frontmatterTags, inlineTags, normalizeTags } from './parse-markdown.js'
import type { Page } from './types.js'

/** Whether the tags the file would be read with (front matter and inline `#tags`) are the page's. */
function sameTags(frontmatter: Readonly<Record<string, unknown>>, body: string, tags: readonly string[]): boolean {
  const normalized = normalizeTags(frontmatterTags(frontmatter), inlineTags(body))
  return normalized.length === tags.length && normalized.every((tag, i) => tag === tags[i])
}

/** A page's body as its file holds it: the compiled truth, then the timeline under its heading. */
function fileBody(page: Pick<Page, 'compiledTruth' | 'timeline'>): string {
  return page.timeline ? `${page.compiledTruth}\n\n## Timeline\n\n${page.timeline}\n` : `${page.compiledTruth}\n`
}

/**
 * The front matter a page's file carries for these tags: the stored one while it (with the
 * body's inline `#tags`) still gives them, since the order an author wrote is content; else
 * `tags` set to the list. Reading the file back yields exactly this front matter.
 */
export function frontmatterWithTags(page: Pick<Page, 'frontmatter' | 'compiledTruth' | 'timeline'>, tags: readonly string[]): Record<string, unknown> {
  const data: Record<string, unknown> = { ...page.frontmatter }
  if (sameTags(page.frontmatter, fileBody(page), tags)) return data
  delete data.tag
  if (tags.length === 0) delete data.tags
  else data.tags = [...tags]
  return data
}

/**
 * A page as a markdown file: front matter (with title, type and tags) and the body, with the
 * timeline under a `## Timeline` heading, the form the importer reads back unchanged.
 */
export function serializePage(page: Pick<Page, 'title' | 'type' | 'tags' | 'frontmatter' | 'compiledTruth' | 'timeline' | 'pageKind'>, extra: Record<string, unknown> = {}): string {
  if (page.pageKind === 'code') return page.compiledTruth
  // Title and type lead, whatever order the stored front matter (jsonb sorts its keys) comes back in.
  const { title: _title, type: _type, ...rest } = frontmatterWithTags(page, page.tags)
  const data: Record<string, unknown> = { title: page.title, type: page.type, ...rest, ...extra }
  return stringifyFrontmatter(fileBody(page), data)
}
