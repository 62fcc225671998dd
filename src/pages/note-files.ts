/**
 * Which files are notes, and what an untitled note is called. Markdown first, and plain text in
 * the light markups people write by hand (`.txt`, reStructuredText, Org, AsciiDoc): their words
 * are what a search should find, even where the markup itself is not rendered.
 */
import { journalTitle, type JournalFormats } from '../convert/index.js'

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
