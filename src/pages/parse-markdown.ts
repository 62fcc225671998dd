import matter from 'gray-matter'
import { ValidationError } from '../errors/index.js'

export interface ParsedMarkdown {
  frontmatter: Record<string, unknown>
  title: string
  type: string
  compiledTruth: string
  timeline: string
  tags: string[]
}

function refuseCode(): never {
  throw new ValidationError('frontmatter_language_refused', 'Front matter must be YAML; executable front matter (---js) is refused.', {
    hint: 'Start the page with a plain --- block holding YAML.',
  })
}

/** gray-matter evaluates `---js` blocks by default; brain never runs page content. */
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: { js: refuseCode, javascript: refuseCode, coffee: refuseCode, coffeescript: refuseCode },
} as const

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

function normalizeTags(value: unknown): string[] {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  const tags = raw.map((t) => String(t).trim()).filter((t) => t !== '')
  return [...new Set(tags)].sort()
}

function toPlainValue(value: unknown): unknown {
  // YAML dates become Date objects; keep frontmatter JSON-clean so it round-trips through jsonb.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (Array.isArray(value)) return value.map(toPlainValue)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainValue(v)]))
  }
  return value
}

export function parseMarkdownPage(text: string, slug: string): ParsedMarkdown {
  let parsed: { data: Record<string, unknown>; content: string }
  try {
    const result = matter(text, MATTER_OPTIONS)
    parsed = { data: result.data as Record<string, unknown>, content: result.content }
  } catch (err) {
    if (err instanceof ValidationError) throw err
    throw new ValidationError('YAML_PARSE', `The front matter of ${slug} is not valid YAML.`, {
      hint: 'Fix the YAML between the --- lines (run `brain frontmatter validate <file>` to see where).',
      cause: err,
    })
  }
  const frontmatter = toPlainValue(parsed.data ?? {}) as Record<string, unknown>
  const body = parsed.content.replace(/^\s*\n/, '')
  const timelineAt = body.search(TIMELINE_HEADING)
  const compiledTruth = (timelineAt >= 0 ? body.slice(0, timelineAt) : body).trim()
  const timeline = timelineAt >= 0 ? body.slice(timelineAt).replace(TIMELINE_HEADING, '').trim() : ''
  const title = typeof frontmatter.title === 'string' && frontmatter.title.trim() !== ''
    ? frontmatter.title.trim()
    : firstHeading(compiledTruth) ?? titleFromSlug(slug)
  const type = typeof frontmatter.type === 'string' && frontmatter.type.trim() !== '' ? frontmatter.type.trim() : 'note'
  return { frontmatter, title, type, compiledTruth, timeline, tags: normalizeTags(frontmatter.tags) }
}
