/**
 * Page properties written as `key:: value` lines at the top of a markdown file, the way Logseq
 * stores a page's properties and Obsidian's Dataview reads page fields. A file with no YAML front
 * matter whose first line is such a line carries its metadata in the lines that follow it, up to
 * the first line that is not one. Logseq may also write them as its first block (`- key:: value`,
 * then indented `key:: value` lines).
 */
import { FRONTMATTER_LIMITS } from './frontmatter-doc.js'

interface PropertyBlock {
  /** Each property as written, in order. `index` is the 0-based line of the file. */
  entries: Array<{ key: string; value: string; index: number }>
  /** The block's lines without a first block's `- ` or indent, to find a key's line by. */
  lines: string[]
  /** Where the body starts: its character offset and 0-based line. */
  bodyOffset: number
  bodyLine: number
}

/**
 * A key of letters, digits, `_`, `-` and `.`, starting with a letter, then `::` and the value
 * after a space (or nothing): `std::vector` and `a::b` are text, not properties. The value is
 * trimmed in code: a pattern that trims it costs time in the square of a line's spaces.
 */
const PROPERTY_LINE = /^([\p{L}_][\p{L}\p{N}_.-]*)::(?:[ \t](.*))?$/u

/**
 * The property block a markdown file opens with, or null when its first line is not a property
 * or the block is longer than front matter may be (`FRONTMATTER_LIMITS.maxBytes`): such a block
 * stays text, as a page's metadata may not outgrow that bound.
 */
export function leadingPropertyBlock(content: string): PropertyBlock | null {
  const entries: PropertyBlock['entries'] = []
  const lines: string[] = []
  let offset = 0
  let firstBlock = false
  for (let index = 0; offset <= content.length; index++) {
    const end = content.indexOf('\n', offset)
    const raw = content.slice(offset, end < 0 ? content.length : end).replace(/\r$/, '')
    let text = raw
    if (index === 0 && raw.startsWith('- ')) {
      firstBlock = true
      text = raw.slice(2)
    } else if (firstBlock) {
      const indent = /^(?: {2}|\t)/.exec(raw)
      text = indent ? raw.slice(indent[0].length) : '\u0000'
    }
    const m = PROPERTY_LINE.exec(text)
    if (!m) break
    entries.push({ key: m[1]!, value: (m[2] ?? '').trim(), index })
    lines.push(text)
    if (end < 0) return content.length > FRONTMATTER_LIMITS.maxBytes ? null : { entries, lines, bodyOffset: content.length, bodyLine: entries.length }
    offset = end + 1
    if (offset > FRONTMATTER_LIMITS.maxBytes) return null
  }
  return entries.length === 0 ? null : { entries, lines, bodyOffset: offset, bodyLine: entries.length }
}
