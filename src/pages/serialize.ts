import { stringifyFrontmatter } from '../util/frontmatter-doc.js'
import type { Page } from './types.js'

/**
 * A page as a markdown file: front matter (with title, type and tags) and the body, with the
 * timeline under a `## Timeline` heading, the form the importer reads back unchanged.
 */
export function serializePage(page: Pick<Page, 'title' | 'type' | 'tags' | 'frontmatter' | 'compiledTruth' | 'timeline' | 'pageKind'>, extra: Record<string, unknown> = {}): string {
  if (page.pageKind === 'code') return page.compiledTruth
  const data: Record<string, unknown> = { ...page.frontmatter, title: page.title, type: page.type, ...extra }
  if (page.tags.length > 0) data.tags = page.tags
  else delete data.tags
  const body = page.timeline ? `${page.compiledTruth}\n\n## Timeline\n\n${page.timeline}\n` : `${page.compiledTruth}\n`
  return stringifyFrontmatter(body, data)
}
