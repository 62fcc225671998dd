import matter from 'gray-matter'
import yaml from 'js-yaml'
import { ValidationError } from '../errors/index.js'

/**
 * The one reader and writer of YAML front matter. Page content is untrusted, so three properties
 * hold here for every caller:
 * - only YAML is read (gray-matter would evaluate `---js` blocks) and nothing is ever executed,
 *   not even when writing a page whose body itself starts with a `---js` block;
 * - the work is bounded: a block larger than `FRONTMATTER_LIMITS.maxBytes` is refused before it
 *   is parsed, and its value, with every alias expanded, may not outgrow that size either nor
 *   nest deeper than `maxDepth` (a "billion laughs" block of a few hundred bytes would otherwise
 *   expand to gigabytes, and one just under a count limit still to hundreds of kilobytes);
 * - values keep the text they were written as: no YAML timestamps, so `title: 2024-03-14` stays
 *   the text `2024-03-14`, and the result is plain JSON (what the database stores).
 */
export const FRONTMATTER_LIMITS = { maxBytes: 64 * 1024, maxDepth: 64 } as const

function refuseCode(): never {
  throw new ValidationError('frontmatter_language_refused', 'Front matter must be YAML; executable front matter (---js) is refused.', {
    hint: 'Start the page with a plain --- block holding YAML.',
  })
}

function tooLarge(bytes: number): ValidationError {
  return new ValidationError('frontmatter_too_large', `The front matter block is ${bytes} bytes; at most ${FRONTMATTER_LIMITS.maxBytes} are read.`, {
    hint: 'Move long values into the page body.',
  })
}

function tooComplex(what: string): ValidationError {
  return new ValidationError('frontmatter_too_complex', `The front matter ${what}; it is refused rather than expanded.`, {
    hint: 'Write the values out instead of nesting YAML aliases (*name) that repeat other aliases.',
  })
}

/** About what a value adds to its JSON text: enough to bound the expansion, cheap to count. */
function weight(value: unknown): number {
  return typeof value === 'string' ? value.length + 3 : 6
}

/**
 * A copy of a parsed YAML value as plain JSON, walked as it would be expanded (aliases are shared
 * references until then), stopping as soon as it outgrows the limits.
 */
function toPlainJson(root: unknown): unknown {
  let size = 0
  const grow = (bytes: number): void => {
    size += bytes
    if (size > FRONTMATTER_LIMITS.maxBytes) throw tooComplex(`expands to more than ${FRONTMATTER_LIMITS.maxBytes / 1024} KiB`)
  }
  const copy = (value: unknown, depth: number): unknown => {
    if (depth > FRONTMATTER_LIMITS.maxDepth) throw tooComplex(`nests deeper than ${FRONTMATTER_LIMITS.maxDepth} levels`)
    grow(weight(value))
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1))
    if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      grow(key.length + 3)
      out[key] = copy(item, depth + 1)
    }
    return out
  }
  return copy(root, 0)
}

/** Parses the text of a YAML block (without its delimiters) within the limits. */
export function parseYamlBlock(text: string): unknown {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > FRONTMATTER_LIMITS.maxBytes) throw tooLarge(bytes)
  return toPlainJson(yaml.safeLoad(text, { schema: yaml.CORE_SCHEMA }) ?? null)
}

const MATTER_OPTIONS = {
  language: 'yaml',
  engines: {
    yaml: { parse: (text: string) => parseYamlBlock(text) as object, stringify: () => refuseCode() },
    js: refuseCode,
    javascript: refuseCode,
    coffee: refuseCode,
    coffeescript: refuseCode,
  },
}

export interface ParsedFrontmatter {
  /** The front matter as a plain JSON object; `{}` when there is none. */
  data: Record<string, unknown>
  /** Everything after the closing delimiter. */
  content: string
  /** The block held YAML that is not a mapping (a sentence, a list): `data` is then `{}`. */
  notMapping: boolean
}

/**
 * Splits a markdown text into its front matter and body. Throws the typed refusals above, and
 * the YAML parser's own error (with its `mark`) for YAML that does not parse.
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const result = matter(text, MATTER_OPTIONS as Parameters<typeof matter>[1])
  const data = result.data as unknown
  const mapping = data !== null && typeof data === 'object' && !Array.isArray(data)
  return { data: mapping ? (data as Record<string, unknown>) : {}, content: result.content, notMapping: !mapping && data !== null && data !== undefined }
}

/**
 * A markdown text with `data` as its front matter and `body` after it. The body is written as
 * given, never parsed, so a body that opens with its own `---js` block stays inert text.
 */
export function stringifyFrontmatter(body: string, data: Record<string, unknown>): string {
  const block = yaml.safeDump(data).trim()
  const head = block === '{}' ? '' : `---\n${block}\n---\n`
  return head + (body.endsWith('\n') ? body : `${body}\n`)
}

interface FrontmatterDoc {
  /** Null when the text has no front matter block at all. */
  data: Record<string, unknown> | null
  body: string
}

/** Splits a markdown descriptor (recipe, skill) into its YAML front matter and body. */
export function readFrontmatterDoc(text: string): FrontmatterDoc {
  if (!/^---[ \t]*\r?\n/.test(text)) return { data: null, body: text }
  const parsed = parseFrontmatter(text)
  return { data: parsed.data, body: parsed.content }
}
