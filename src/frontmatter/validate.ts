import { markdownSlugForPath } from '../pages/slug.js'
import { FIXABLE_CODES, type ParseValidationCode, type ParseValidationError } from './codes.js'
import { findBlock, hasNestedQuotes, requoteLine, splitLines } from './block.js'
import { parseYaml } from './yaml.js'

/**
 * What the page's `slug:` should be. `slug` when the file's place in a source is known; `path`
 * (an absolute path) when it is not, in which case any trailing part of the path is accepted.
 */
export type SlugExpectation = { slug: string } | { path: string }

export interface ValidateOptions {
  expected?: SlugExpectation
}

function issue(code: ParseValidationCode, line: number, message: string): ParseValidationError {
  return { code, line, message, fixable: FIXABLE_CODES.has(code) }
}

function trimSlug(value: string): string {
  return value.trim().replace(/^\/+|\/+$/g, '')
}

/** The slug the file's path gives, or null when the frontmatter slug is acceptable. */
export function slugMismatch(declared: string, expected: SlugExpectation): string | null {
  const slug = trimSlug(declared)
  if ('slug' in expected) return slug === expected.slug ? null : expected.slug
  const parts = expected.path
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '')
  for (let take = 1; take <= parts.length; take++) {
    try {
      if (markdownSlugForPath(parts.slice(-take).join('/')) === slug) return null
    } catch {
      return null
    }
  }
  try {
    return markdownSlugForPath(parts[parts.length - 1] ?? '')
  } catch {
    return null
  }
}

function firstNulLine(text: string): number {
  const at = text.indexOf('\u0000')
  return text.slice(0, at).split('\n').length
}

function validateYaml(lines: string[], closeIndex: number, options: ValidateOptions): ParseValidationError[] {
  const errors: ParseValidationError[] = []
  const yamlLines = lines.slice(1, closeIndex)
  if (yamlLines.every((l) => l.trim() === '' || l.trim().startsWith('#'))) {
    return [issue('EMPTY_FRONTMATTER', 1, 'The front matter block is empty.')]
  }
  yamlLines.forEach((line, i) => {
    if (hasNestedQuotes(line)) errors.push(issue('NESTED_QUOTES', i + 2, `Unescaped quotes inside a quoted value: ${line.trim().slice(0, 80)}`))
  })
  // Judge the YAML as it will be once the nested quotes are escaped, so one mistake is one error.
  const parsed = parseYaml(errors.length > 0 ? yamlLines.map(requoteLine) : yamlLines)
  if (!parsed.ok) {
    errors.push(issue('YAML_PARSE', (parsed.line ?? 0) + 2, `The front matter is not valid YAML: ${parsed.reason}`))
    return errors
  }
  const data = parsed.data
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    errors.push(issue('YAML_PARSE', 2, 'The front matter must be a mapping of keys to values.'))
    return errors
  }
  if (Object.keys(data).length === 0) return [...errors, issue('EMPTY_FRONTMATTER', 1, 'The front matter block has no keys.')]
  const declared = (data as Record<string, unknown>).slug
  if (typeof declared === 'string' && options.expected) {
    const wanted = slugMismatch(declared, options.expected)
    if (wanted !== null) {
      const at = yamlLines.findIndex((l) => /^slug\s*:/.test(l))
      errors.push(issue('SLUG_MISMATCH', at >= 0 ? at + 2 : 2, `slug "${declared}" does not match the file's path (expected "${wanted}").`))
    }
  }
  return errors
}

/** Every front matter problem of one markdown file, in line order of discovery. */
export function validateFrontmatter(text: string, options: ValidateOptions = {}): ParseValidationError[] {
  const errors: ParseValidationError[] = []
  if (text.includes('\u0000')) errors.push(issue('NULL_BYTES', firstNulLine(text), 'The file contains NUL bytes.'))
  const { lines } = splitLines(text.replace(/\u0000/g, ''))
  const block = findBlock(lines)
  if (!block.opened) {
    errors.push(issue('MISSING_OPEN', 1, 'The file does not start with a --- front matter line.'))
    return errors
  }
  if (block.language !== '' && block.language !== 'yaml') {
    errors.push(issue('YAML_PARSE', 1, `Front matter must be YAML; "---${block.language}" is refused.`))
    return errors
  }
  if (block.closeIndex === null) {
    errors.push(issue('MISSING_CLOSE', 1, 'The front matter has no closing --- line.'))
    return errors
  }
  return [...errors, ...validateYaml(lines, block.closeIndex, options)]
}
