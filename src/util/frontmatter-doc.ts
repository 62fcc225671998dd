import matter from 'gray-matter'
import { ValidationError } from '../errors/index.js'

function refuseCode(): never {
  throw new ValidationError('frontmatter_language_refused', 'Front matter must be YAML; executable front matter (---js) is refused.')
}

/** gray-matter would evaluate `---js` blocks; descriptors shipped as markdown are never run. */
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: { js: refuseCode, javascript: refuseCode, coffee: refuseCode, coffeescript: refuseCode },
} as const

export interface FrontmatterDoc {
  /** Null when the text has no front matter block at all. */
  data: Record<string, unknown> | null
  body: string
}

/** Splits a markdown descriptor (recipe, skill) into its YAML front matter and body. */
export function readFrontmatterDoc(text: string): FrontmatterDoc {
  if (!/^---[ \t]*\r?\n/.test(text)) return { data: null, body: text }
  const parsed = matter(text, MATTER_OPTIONS)
  return { data: parsed.data as Record<string, unknown>, body: parsed.content }
}
