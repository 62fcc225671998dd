/**
 * The prose of a markdown text: its lines outside fenced code blocks, with inline code spans
 * blanked out (same length, so columns still match). Links, tags and headings are read from
 * prose only, never from code.
 */
import { leadingPropertyBlock } from './property-lines.js'

interface ProseLine {
  /** 0-based line number within the text scanned. */
  index: number
  /** The line with inline code replaced by spaces. */
  text: string
  /** The line as written. */
  raw: string
}

/** Blockquote markers (`> `, `>> `, `> > `): a fence inside a quote or a callout follows them. */
const QUOTE_PREFIX = /^(?: {0,3}>[ \t]?)+/
/**
 * A fence, indented by any amount, so a fence inside a list item counts too. The run is taken
 * whole (no shorter reading of it is tried), so a long run before a carriage return in the line
 * costs its length, not its square.
 */
const FENCE = /^[ \t]*(`{3,}(?!`)|~{3,}(?!~))(.*)$/

/**
 * Replaces `code` spans by spaces: a run of backticks opens one when a later run of the same
 * length closes it, as CommonMark reads them. One pass over the line's runs, each paired with the
 * next of its length, so a line of thousands of backticks costs its length, not its cube.
 */
export function maskInlineCode(line: string): string {
  if (!line.includes('`')) return line
  const runs: Array<{ at: number; length: number }> = []
  for (let i = line.indexOf('`'); i !== -1; i = line.indexOf('`', i)) {
    let end = i
    while (line.charCodeAt(end) === 0x60) end++
    runs.push({ at: i, length: end - i })
    i = end
  }
  const nextOfLength = new Array<number>(runs.length)
  const later = new Map<number, number>()
  for (let r = runs.length - 1; r >= 0; r--) {
    nextOfLength[r] = later.get(runs[r]!.length) ?? -1
    later.set(runs[r]!.length, r)
  }
  let out = ''
  let copied = 0
  for (let r = 0; r < runs.length; r++) {
    const close = nextOfLength[r]!
    if (close < 0) continue
    const from = runs[r]!.at
    const to = runs[close]!.at + runs[close]!.length
    out += line.slice(copied, from) + ' '.repeat(to - from)
    copied = to
    r = close
  }
  return out + line.slice(copied)
}

/** The fence a line opens or closes, read after its blockquote markers; null when it is none. */
function fenceOf(content: string): { marker: string; rest: string } | null {
  const m = FENCE.exec(content)
  if (!m) return null
  // A backtick fence's info string holds no backtick: "```a``` b" is inline code.
  if (m[1]![0] === '`' && m[2]!.includes('`')) return null
  return { marker: m[1]!, rest: m[2]! }
}

/**
 * Every line outside fenced code, in order; an unclosed fence runs to the end of the text, or of
 * the blockquote it was opened in.
 */
export function proseLines(text: string): ProseLine[] {
  const out: ProseLine[] = []
  let fence: { marker: string; quoted: boolean } | null = null
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!.replace(/\r$/, '')
    const prefix = QUOTE_PREFIX.exec(raw)?.[0] ?? ''
    const found = fenceOf(raw.slice(prefix.length))
    if (fence !== null) {
      if (fence.quoted && prefix === '') {
        fence = null
      } else {
        const closes = found !== null && found.marker[0] === fence.marker[0] && found.marker.length >= fence.marker.length && found.rest.trim() === ''
        if (closes) fence = null
        continue
      }
    }
    if (found !== null) {
      fence = { marker: found.marker, quoted: prefix !== '' }
      continue
    }
    out.push({ index, text: maskInlineCode(raw), raw })
  }
  return out
}

/**
 * Where the body of a markdown file starts: the line after a leading `---` front-matter block
 * (closed by `---` or `...`) or after its leading `key:: value` property lines, else 0. Also
 * returns the front-matter lines, the 1-based line of the first of them, and the body itself.
 * Reads only as far as the block goes: most notes have a short one and a long body.
 */
export function splitFrontmatterLines(content: string): { bodyLine: number; frontmatterLines: string[]; firstFrontmatterLine: number; body: string } {
  if (!content.startsWith('---')) {
    const properties = content.includes('::') ? leadingPropertyBlock(content) : null
    if (properties === null) return { bodyLine: 0, frontmatterLines: [], firstFrontmatterLine: 1, body: content }
    return { bodyLine: properties.bodyLine, frontmatterLines: properties.lines, firstFrontmatterLine: 1, body: content.slice(properties.bodyOffset) }
  }
  const none = { bodyLine: 0, frontmatterLines: [], firstFrontmatterLine: 2, body: content }
  let end = content.indexOf('\n')
  if (end < 0 || !/^---\s*$/.test(content.slice(0, end).replace(/\r$/, ''))) return none
  const frontmatterLines: string[] = []
  for (let line = 1; end >= 0; line++) {
    const start = end + 1
    end = content.indexOf('\n', start)
    const text = content.slice(start, end < 0 ? content.length : end)
    if (/^(---|\.\.\.)\s*$/.test(text.replace(/\r$/, ''))) return { bodyLine: line + 1, frontmatterLines, firstFrontmatterLine: 2, body: end < 0 ? '' : content.slice(end + 1) }
    frontmatterLines.push(text)
  }
  return none
}
