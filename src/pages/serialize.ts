import { stringifyFrontmatter } from '../util/frontmatter-doc.js'
import { frontmatterTags, inlineTags, normalizeTags } from './parse-markdown.js'
import type { Page } from './types.js'

/** Whether the tags the file would be read with (front matter and inline `#tags`) are the page's. */
function sameTags(frontmatter: Readonly<Record<string, unknown>>, body: string, tags: readonly string[]): boolean {
  const normalized = normalizeTags(frontmatterTags(frontmatter), inlineTags(body))
  return normalized.length === tags.length && normalized.every((tag, i) => tag === tags[i])
}

/**
 * A page as a markdown file: front matter (with title, type and tags) and the body, with the
 * timeline under a `## Timeline` heading, the form the importer reads back unchanged.
 */
export function serializePage(page: Pick<Page, 'title' | 'type' | 'tags' | 'frontmatter' | 'compiledTruth' | 'timeline' | 'pageKind'>, extra: Record<string, unknown> = {}): string {
  if (page.pageKind === 'code') return page.compiledTruth
  // Title and type lead, whatever order the stored front matter (jsonb sorts its keys) comes back in.
  const { title: _title, type: _type, ...rest } = page.frontmatter
  const data: Record<string, unknown> = { title: page.title, type: page.type, ...rest, ...extra }
  const body = page.timeline ? `${page.compiledTruth}\n\n## Timeline\n\n${page.timeline}\n` : `${page.compiledTruth}\n`
  // Tags as the author wrote them while they still give the page's tags: their order is content.
  if (!sameTags(page.frontmatter, body, page.tags)) {
    delete data.tag
    if (page.tags.length === 0) delete data.tags
    else data.tags = page.tags
  }
  return stringifyFrontmatter(body, data)
}
