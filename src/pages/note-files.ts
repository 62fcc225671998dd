/**
 * Which files are notes, and what an untitled note is called. Markdown first, and plain text in
 * the light markups people write by hand (`.txt`, reStructuredText, Org, AsciiDoc): their words
 * are what a search should find, even where the markup itself is not rendered.
 */
import { journalTitle, type JournalFormats } from './logseq-journal.js'

/** A markdown file's extension, which its slug drops. */
export const MARKDOWN_FILE = /\.(md|markdown|mdx)$/i
const PLAIN_TEXT_FILE = /\.(txt|text|rst|org|adoc|asciidoc)$/i

/** Whether a file is imported as a note, by its name. */
export function isNoteFileName(path: string): boolean {
  return MARKDOWN_FILE.test(path) || PLAIN_TEXT_FILE.test(path)
}

/** Whether a file is markdown (the only kind of note with front matter to check). */
export function isMarkdownFileName(path: string): boolean {
  return MARKDOWN_FILE.test(path)
}

/**
 * Whether a note is a plain-text file, whose slug keeps its extension: a page written back goes
 * to that file itself, not to a markdown file beside it.
 */
export function isPlainTextNoteName(path: string): boolean {
  return PLAIN_TEXT_FILE.test(path)
}

/**
 * The file name as written, without its note extension. Two files are named as Logseq names
 * them: a namespaced page (`space/rockets`) is the file `space___rockets.md`, so `___` between
 * words is a `/` again, and a journal day is titled as Logseq shows it and links to it (in its
 * graph's `journal` formats, Logseq's defaults when not given).
 */
export function noteFileTitle(path: string, journal?: JournalFormats): string | null {
  const normalized = path.replace(/\\/g, '/')
  const day = journalTitle(normalized, journal)
  if (day !== null) return day
  const name = (normalized.split('/').pop() ?? '').replace(MARKDOWN_FILE, '').replace(PLAIN_TEXT_FILE, '').trim()
  if (name === '') return null
  return MARKDOWN_FILE.test(path) && /[^_]___[^_]/.test(name) ? name.replace(/(?<=[^_])___(?=[^_])/g, '/') : name
}

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
