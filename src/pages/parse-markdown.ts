import { ValidationError } from '../errors/index.js'
import { parseFrontmatter } from '../util/frontmatter-doc.js'

export interface ParsedMarkdown {
  frontmatter: Record<string, unknown>
  title: string
  type: string
  compiledTruth: string
  timeline: string
  tags: string[]
}

/** A `## Timeline` heading starts the timeline section; everything above is compiled truth. */
const TIMELINE_HEADING = /^#{1,3}[ \t]+timeline[ \t]*$/im

function firstHeading(body: string): string | null {
  const match = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body)
  return match ? match[1]!.trim() : null
}

function titleFromSlug(slug: string): string {
  const last = slug.split('/').pop() ?? slug
  return last.replace(/[-_]+/g, ' ').trim() || slug
}

/** Front-matter tags (a list or a comma-separated text) as the sorted, distinct page tags. */
export function normalizeTags(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  const tags = raw.map((t) => String(t).trim()).filter((t) => t !== '')
  return [...new Set(tags)].sort()
}

export function parseMarkdownPage(text: string, slug: string): ParsedMarkdown {
  let parsed: { data: Record<string, unknown>; content: string }
  try {
    parsed = parseFrontmatter(text)
  } catch (err) {
    if (err instanceof ValidationError) throw err
    throw new ValidationError('YAML_PARSE', `The front matter of ${slug} is not valid YAML.`, {
      hint: 'Fix the YAML between the --- lines (run `brain frontmatter validate <file>` to see where).',
      cause: err,
    })
  }
  const frontmatter = parsed.data
  const body = parsed.content.replace(/^\s*\n/, '')
  const timelineAt = body.search(TIMELINE_HEADING)
  const compiledTruth = (timelineAt >= 0 ? body.slice(0, timelineAt) : body).trim()
  const timeline = timelineAt >= 0 ? body.slice(timelineAt).replace(TIMELINE_HEADING, '').trim() : ''
  const written = typeof frontmatter.title === 'number' || typeof frontmatter.title === 'boolean' ? String(frontmatter.title) : frontmatter.title
  const title = typeof written === 'string' && written.trim() !== '' ? written.trim() : firstHeading(compiledTruth) ?? titleFromSlug(slug)
  const type = typeof frontmatter.type === 'string' && frontmatter.type.trim() !== '' ? frontmatter.type.trim() : 'note'
  return { frontmatter, title, type, compiledTruth, timeline, tags: normalizeTags(frontmatter.tags) }
}
