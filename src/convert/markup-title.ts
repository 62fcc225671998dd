/**
 * The title a hand-written plain-text markup file declares for itself in its own syntax: Org,
 * AsciiDoc and reStructuredText each have one.
 */

const ORG_TITLE = /^#\+title:/i
/** What `.` in a pattern does not match. */
const LINE_BREAK = /[\n\r\u2028\u2029]/

/**
 * The value after a header keyword, as the pattern `[ \t]{minIndent,}(.+?)\s*$` reads it: the
 * text without the blanks around it, null when a line break is inside it. Read without the
 * pattern, which tried every end of the value with every run of blanks after it and so cost the
 * square of a line with many blanks. A value of blanks only is one of them, as the pattern has it.
 */
function headerValue(rest: string, minIndent: number): string | null {
  let lead = 0
  while (rest[lead] === ' ' || rest[lead] === '\t') lead++
  if (lead < minIndent) return null
  const value = rest.slice(lead)
  const text = value.trimEnd()
  if (text !== '') return LINE_BREAK.test(text) ? null : text
  if (value !== '' && !LINE_BREAK.test(value[0]!)) return value[0]!
  return lead > minIndent ? rest[lead - 1]! : null
}

/** reStructuredText's underline (or over- and underline) of one repeated punctuation sign. */
const RST_ADORNMENT = /^([=\-~^"'`#*+:.])\1{2,}\s*$/

/**
 * The title a plain-text markup declares: Org's `#+TITLE:`, AsciiDoc's `= Title` document
 * header, the first reStructuredText section title. Null for markdown and plain `.txt`.
 */
export function markupTitle(path: string, body: string): string | null {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase()
  const lines = body.split('\n', 200)
  if (ext === 'org') {
    for (const line of lines) {
      const title = ORG_TITLE.test(line) ? headerValue(line.slice('#+title:'.length), 0) : null
      if (title !== null) return title
    }
    return null
  }
  if (ext === 'adoc' || ext === 'asciidoc') {
    const first = lines.find((l) => l.trim() !== '' && !l.startsWith('//') && !l.startsWith(':'))
    return first?.startsWith('=') ? headerValue(first.slice(1), 1) : null
  }
  if (ext === 'rst') {
    for (let i = 0; i + 1 < lines.length; i++) {
      const text = lines[i]!.trim()
      const under = lines[i + 1]!
      if (text === '' || RST_ADORNMENT.test(lines[i]!) || !RST_ADORNMENT.test(under)) continue
      if (under.trim().length >= text.length) return text
    }
  }
  return null
}
