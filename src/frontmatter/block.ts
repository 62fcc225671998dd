/**
 * The line structure of a markdown file's front matter, shared by the validator and the fixer.
 * Lines keep their `\r`, so a rewrite preserves the file's line endings.
 */
interface TextLines {
  lines: string[]
  eol: '\n' | '\r\n'
}

export function splitLines(text: string): TextLines {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n'
  return { lines: text.split('\n'), eol }
}

export function joinLines(lines: readonly string[]): string {
  return lines.join('\n')
}

interface FrontmatterBlock {
  /** The opening line is a delimiter (`---`, or `---<language>`). */
  opened: boolean
  /** What follows `---` on the opening line (empty for plain YAML). */
  language: string
  /** 0-based index of the closing `---` line, or null when there is none. */
  closeIndex: number | null
}

const OPEN = /^---([A-Za-z]*)\s*$/

function isDelimiter(line: string): boolean {
  return line.trimEnd() === '---'
}

export function findBlock(lines: readonly string[]): FrontmatterBlock {
  const first = (lines[0] ?? '').replace(/^\uFEFF/, '')
  const open = OPEN.exec(first)
  if (!open) return { opened: false, language: '', closeIndex: null }
  for (let i = 1; i < lines.length; i++) {
    if (isDelimiter(lines[i]!)) return { opened: true, language: open[1]!.toLowerCase(), closeIndex: i }
  }
  return { opened: true, language: open[1]!.toLowerCase(), closeIndex: null }
}

/** `key: "value"` or `- 'item'`: a whole-line quoted scalar, with its parts. */
const QUOTED_SCALAR = /^(\s*(?:-\s+)?(?:[^\s#'"][^:]*:\s+)?)(["'])(.*)\2(\s*)$/

/** Whether a quoted scalar's inner text holds a quote of its own kind that is not escaped. */
function hasNestedQuote(quote: string, inner: string): boolean {
  if (quote === '"') return /(?<!\\)(?:\\\\)*"/.test(inner)
  return inner.replace(/''/g, '').includes("'")
}

export function hasNestedQuotes(line: string): boolean {
  const match = QUOTED_SCALAR.exec(line.replace(/\r$/, ''))
  return match !== null && hasNestedQuote(match[2]!, match[3]!)
}

/** The line with its nested quotes escaped (`\"` inside double quotes, `''` inside single). */
export function requoteLine(line: string): string {
  const cr = line.endsWith('\r') ? '\r' : ''
  const match = QUOTED_SCALAR.exec(line.replace(/\r$/, ''))
  if (!match || !hasNestedQuote(match[2]!, match[3]!)) return line
  const [, prefix, quote, inner, trailing] = match
  const fixed =
    quote === '"'
      ? inner!.replace(/(?<!\\)((?:\\\\)*)"/g, '$1\\"')
      : inner!
          .replace(/''/g, '\u0000')
          .replace(/'/g, "''")
          .replace(/\u0000/g, "''")
  return `${prefix}${quote}${fixed}${quote}${trailing}${cr}`
}

/**
 * Where a missing closing delimiter belongs: before the first line that cannot be part of the
 * YAML block (a blank line, a heading, or prose that is neither a key, a list item nor an
 * indented continuation); at the end when every line could be YAML.
 */
export function closingInsertIndex(lines: readonly string[]): number {
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '')
    if (line.trim() === '' || /^#{1,6}\s/.test(line)) return i
    const yamlish = /^\s/.test(line) || /^-(\s|$)/.test(line) || /^#/.test(line) || /^[^\s:][^:]*:(\s|$)/.test(line)
    if (!yamlish) return i
  }
  return lines.length
}
