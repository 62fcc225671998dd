/**
 * The prose of a markdown text: its lines outside fenced code blocks, with inline code spans
 * blanked out (same length, so columns still match). Links, tags and headings are read from
 * prose only, never from code.
 */

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
/** A fence, indented by any amount, so a fence inside a list item counts too. */
const FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/

/** Replaces `code` spans (any run of backticks, closed by the same run) by spaces. */
function maskInlineCode(line: string): string {
  if (!line.includes('`')) return line
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => ' '.repeat(m.length))
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
 * (closed by `---` or `...`), or 0. Also returns the front-matter lines.
 */
export function splitFrontmatterLines(content: string): { bodyLine: number; frontmatterLines: string[] } {
  const lines = content.split('\n')
  if (!/^---\s*$/.test(lines[0]?.replace(/\r$/, '') ?? '')) return { bodyLine: 0, frontmatterLines: [] }
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i]!.replace(/\r$/, ''))) return { bodyLine: i + 1, frontmatterLines: lines.slice(1, i) }
  }
  return { bodyLine: 0, frontmatterLines: [] }
}
