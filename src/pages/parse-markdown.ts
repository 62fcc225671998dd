import { ValidationError } from '../errors/index.js'
import { markupTitle, NOTION_EXPORT_NAME, notionPropertyLines, orgHeaderFrontmatter, type JournalFormats } from '../convert/index.js'
import { parseFrontmatter, proseLines, leadingPropertyBlock, type ParsedFrontmatter } from '../util/index.js'
import { isPlainTextNoteName, noteFileTitle } from './note-files.js'

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

/**
 * A heading's text without the spaces and `#`s that close it (`# Title ##`), trimmed by a loop:
 * a pattern that does it takes time in the square of the line's length on `# # # … x`.
 */
function withoutClosingHashes(text: string): string {
  let end = text.length
  while (end > 0 && ' \t#'.includes(text[end - 1]!)) end--
  return text.slice(0, end).trim()
}

/**
 * The first top-level heading of the prose, `# Title` or a line underlined with `=` (a setext
 * heading, as plain-text notes and older markdown write it). A `#` line inside a fenced code
 * block is code, not a heading.
 */
function firstHeading(body: string): string | null {
  let previous: { index: number; text: string } | null = null
  for (const line of proseLines(body)) {
    const match = /^#[ \t]+(\S.*)$/.exec(line.raw)
    if (match) {
      const text = withoutClosingHashes(match[1]!)
      if (text !== '') return text
    }
    if (/^ {0,3}=+[ \t]*$/.test(line.raw) && previous !== null && previous.index === line.index - 1 && /^ {0,3}[^\s#>|=*+-]/.test(previous.text)) {
      return previous.text.trim()
    }
    previous = { index: line.index, text: line.raw }
  }
  return null
}

/** A page with no file: its slug's last segment, as words. */
function titleFromSlug(slug: string): string {
  const last = slug.split('/').pop() ?? slug
  return last.replace(/[-_]+/g, ' ').trim() || slug
}

/**
 * Inline `#tags` and `#nested/tags` of the prose: after a space or at a line's start, not a
 * heading marker (`# Title`), not in code, not a number alone (`#1`). Logseq's `#[[two words]]`
 * is a tag too.
 */
export function inlineTags(body: string): string[] {
  if (!body.includes('#')) return []
  const tags: string[] = []
  for (const line of proseLines(body)) {
    if (!line.text.includes('#')) continue
    for (const m of line.text.matchAll(/(?<=^|\s)#(?:\[\[([^[\]]+)\]\]|([\p{L}\p{N}_\-/]+))/gu)) {
      // Trailing slashes go from the start of their run only: tried at each slash, a long run
      // followed by more of the tag cost the square of its length.
      const tag = (m[1] ?? m[2]!).trim().replace(/(?<!\/)\/+$/, '')
      if (tag !== '' && !/^[\d/]+$/.test(tag)) tags.push(tag)
    }
  }
  return tags
}

/**
 * The tags front matter names: `tags`, or `tag` as older notes write it, each a list or a
 * comma-separated text; a leading `#` is dropped (`"#beta"` is the tag `beta`).
 */
export function frontmatterTags(frontmatter: Readonly<Record<string, unknown>>): string[] {
  const tags: string[] = []
  for (const value of [frontmatter.tags, frontmatter.tag]) {
    const items: unknown[] = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
    for (const item of items) {
      if (typeof item !== 'string' && typeof item !== 'number') continue
      const tag = String(item).trim().replace(/^#+/, '').trim()
      if (tag !== '') tags.push(tag)
    }
  }
  return tags
}

/**
 * Front-matter tags and inline tags as the sorted, distinct page tags. Tags differing only in
 * case are one tag, as in the tools notes come from (`#tag`, `#Tag`, `#TAG`), written as it
 * first appears: front matter first, then the body in order.
 */
export function normalizeTags(fromFrontmatter: readonly string[], inline: readonly string[] = []): string[] {
  const tags = new Map<string, string>()
  for (const tag of [...fromFrontmatter, ...inline].map((t) => t.trim())) {
    if (tag !== '' && !tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag)
  }
  return [...tags.values()].sort()
}

/**
 * A plain-text note has front matter only when its opening block is a YAML mapping: a `---` line
 * is a common separator in plain text, and what it encloses is the note's text, not a header.
 * Without one, an Org file's header gives its ID, aliases and tags; its text stays as written.
 */
function plainTextFrontmatter(text: string, path: string): ParsedFrontmatter {
  try {
    const parsed = parseFrontmatter(text)
    if (Object.keys(parsed.data).length > 0) return parsed
  } catch {
    // Not YAML: the block is prose.
  }
  return { data: /\.org$/i.test(path) ? orgHeaderFrontmatter(text) : {}, content: text, notMapping: false }
}

/** Properties whose value is a list, written with commas: `alias:: Apollo, [[Moonshot]]`. */
const LIST_PROPERTIES = new Set(['alias', 'aliases', 'tags', 'tag'])
/** Properties whose value names one thing, which Logseq may write as a link: `type:: [[person]]`. */
const NAME_PROPERTIES = new Set(['title', 'type'])

/** `[[Name]]` as the name it links, any other text as written. */
function unbracketed(value: string): string {
  const m = /^\[\[([^\[\]]*)\]\]$/.exec(value.trim())
  return (m ? m[1]! : value).trim()
}

/**
 * A comma-separated value, commas inside `[[…]]` kept, each item without its `#` or brackets.
 * Scanned once: a pattern with the same alternatives takes time in the square of the value's
 * length on a line of unclosed `[[`.
 */
function listItems(value: string): string[] {
  const items: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < value.length; i++) {
    if (value.startsWith('[[', i)) {
      depth++
      i++
    } else if (depth > 0 && value.startsWith(']]', i)) {
      depth--
      i++
    } else if (depth === 0 && value[i] === ',') {
      items.push(value.slice(start, i))
      start = i + 1
    }
  }
  items.push(value.slice(start))
  return items.map((item) => unbracketed(item.trim().replace(/^#(?=\S)/, ''))).filter((item) => item !== '')
}

/**
 * A markdown note's leading `key:: value` lines (Logseq's page properties, Dataview's page
 * fields) as front matter, and the body after them. Keys are lower-cased, as Logseq reads them;
 * the first of a repeated key counts. `alias` and `tags` become lists, `title` and `type` lose a
 * link's brackets, and every other value stays the text it was written as, so a property that
 * names pages (`related:: [[A]], [[B]]`) gives a typed link to each.
 */
function propertyFrontmatter(text: string): ParsedFrontmatter | null {
  const block = leadingPropertyBlock(text)
  if (block === null) return null
  const data = new Map<string, unknown>()
  for (const { key, value } of block.entries) {
    const name = key.toLowerCase()
    if (data.has(name)) continue
    data.set(name, LIST_PROPERTIES.has(name) ? listItems(value) : NAME_PROPERTIES.has(name) ? unbracketed(value) : value)
  }
  return { data: Object.fromEntries(data), content: text.slice(block.bodyOffset), notMapping: false }
}

/**
 * The properties of a page exported from a Notion database as front matter: names lower-cased
 * with spaces as `_` (`Due Date` → `due_date`), `Tags` a comma-separated list. The lines stay
 * in the body as written, where Notion put them and where their links are read.
 */
function notionFrontmatter(parsed: ParsedFrontmatter): ParsedFrontmatter {
  const entries = notionPropertyLines(parsed.content)
  if (entries === null) return parsed
  const data = new Map<string, unknown>()
  for (const { key, value } of entries) {
    const name = key
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '_')
      .replace(/^_+|_+$/g, '')
    if (name === '' || data.has(name)) continue
    data.set(
      name,
      LIST_PROPERTIES.has(name)
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter((v) => v !== '')
        : value,
    )
  }
  return { ...parsed, data: Object.fromEntries(data) }
}

/**
 * `path`, when the page comes from a file, names an untitled page after that file (a Logseq
 * journal day in `journal`, its graph's formats). A plain-text
 * note is known by its path, or by its slug when it comes without one (the brain-directory watcher).
 */
export function parseMarkdownPage(text: string, slug: string, path?: string, journal?: JournalFormats): ParsedMarkdown {
  let parsed: ParsedFrontmatter
  try {
    parsed = isPlainTextNoteName(path ?? slug) ? plainTextFrontmatter(text, path ?? slug) : parseFrontmatter(text)
  } catch (err) {
    if (err instanceof ValidationError) throw err
    throw new ValidationError('YAML_PARSE', `The front matter of ${slug} is not valid YAML.`, {
      hint: 'Fix the YAML between the --- lines (run `brain frontmatter validate <file>` to see where).',
      cause: err,
    })
  }
  if (parsed.notMapping) {
    throw new ValidationError('YAML_PARSE', `The front matter of ${slug} is not a mapping of keys to values.`, {
      hint: 'Write the front matter as `key: value` lines between the --- lines, or remove the --- lines if the text is not front matter.',
    })
  }
  if (!text.startsWith('---') && !isPlainTextNoteName(path ?? slug) && text.includes('::')) parsed = propertyFrontmatter(text) ?? parsed
  if (!text.startsWith('---') && path !== undefined && NOTION_EXPORT_NAME.test(path)) parsed = notionFrontmatter(parsed)
  const frontmatter = parsed.data
  const body = parsed.content.replace(/^\s*\n/, '')
  const timelineAt = body.search(TIMELINE_HEADING)
  const compiledTruth = (timelineAt >= 0 ? body.slice(0, timelineAt) : body).trim()
  const timeline = timelineAt >= 0 ? body.slice(timelineAt).replace(TIMELINE_HEADING, '').trim() : ''
  const written = typeof frontmatter.title === 'number' || typeof frontmatter.title === 'boolean' ? String(frontmatter.title) : frontmatter.title
  const title =
    typeof written === 'string' && written.trim() !== ''
      ? written.trim()
      : ((path ? markupTitle(path, compiledTruth) : null) ?? firstHeading(compiledTruth) ?? (path ? noteFileTitle(path, journal) : null) ?? titleFromSlug(slug))
  const type = typeof frontmatter.type === 'string' && frontmatter.type.trim() !== '' ? frontmatter.type.trim() : 'note'
  return { frontmatter, title, type, compiledTruth, timeline, tags: normalizeTags(frontmatterTags(frontmatter), inlineTags(body)) }
}
