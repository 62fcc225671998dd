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

const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Replaces `code` spans (any run of backticks, closed by the same run) by spaces. */
function maskInlineCode(line: string): string {
  if (!line.includes('`')) return line
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => ' '.repeat(m.length))
}

/** Every line outside fenced code, in order; an unclosed fence runs to the end of the text. */
export function proseLines(text: string): ProseLine[] {
  const out: ProseLine[] = []
  let fence: string | null = null
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!.replace(/\r$/, '')
    const marker = FENCE.exec(raw)?.[1]
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && raw.trim() === marker) fence = null
      continue
    }
    if (marker) {
      fence = marker
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
