import { stringifyFrontmatter } from '../util/frontmatter-doc.js'
import { normalizeTags } from './parse-markdown.js'
import type { Page } from './types.js'

function sameTags(written: unknown, tags: readonly string[]): boolean {
  const normalized = normalizeTags(written)
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
  // Tags as the author wrote them when they are still the page's tags: their order is content.
  if (page.tags.length === 0) delete data.tags
  else if (!sameTags(page.frontmatter.tags, page.tags)) data.tags = page.tags
  const body = page.timeline ? `${page.compiledTruth}\n\n## Timeline\n\n${page.timeline}\n` : `${page.compiledTruth}\n`
  return stringifyFrontmatter(body, data)
}
