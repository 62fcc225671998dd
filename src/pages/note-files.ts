/**
 * Which files are notes, and what an untitled note is called. Markdown first, and plain text in
 * the light markups people write by hand (`.txt`, reStructuredText, Org, AsciiDoc): their words
 * are what a search should find, even where the markup itself is not rendered.
 */

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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** Logseq's journal files: `journals/2024_01_15.md`. */
const LOGSEQ_JOURNAL = /(?:^|\/)journals\/(\d{4})_(\d{2})_(\d{2})\.md$/i

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
function ordinal(day: number): string {
  const suffix = day % 100 >= 11 && day % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][day % 10] ?? 'th')
  return `${day}${suffix}`
}

/**
 * The title Logseq shows for a journal file and that its links name the day by, in Logseq's
 * default format (`Jan 15th, 2024`); null for any other file or a date that does not exist.
 */
function logseqJournalTitle(path: string): string | null {
  const m = LOGSEQ_JOURNAL.exec(path)
  if (!m) return null
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${MONTHS[month - 1]} ${ordinal(day)}, ${year}`
}

/**
 * The file name as written, without its note extension. Two files are named as Logseq names
 * them: a namespaced page (`space/rockets`) is the file `space___rockets.md`, so `___` between
 * words is a `/` again, and a journal day is titled as Logseq shows it and links to it.
 */
export function noteFileTitle(path: string): string | null {
  const normalized = path.replace(/\\/g, '/')
  const journal = logseqJournalTitle(normalized)
  if (journal !== null) return journal
  const name = (normalized.split('/').pop() ?? '').replace(MARKDOWN_FILE, '').replace(PLAIN_TEXT_FILE, '').trim()
  if (name === '') return null
  return MARKDOWN_FILE.test(path) && /[^_]___[^_]/.test(name) ? name.replace(/(?<=[^_])___(?=[^_])/g, '/') : name
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
      const m = /^#\+title:[ \t]*(.+?)\s*$/i.exec(line)
      if (m) return m[1]!
    }
    return null
  }
  if (ext === 'adoc' || ext === 'asciidoc') {
    const first = lines.find((l) => l.trim() !== '' && !l.startsWith('//') && !l.startsWith(':'))
    return /^=[ \t]+(.+?)\s*$/.exec(first ?? '')?.[1] ?? null
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
