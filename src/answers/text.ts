/**
 * The plain-text pieces the pack and the extractive answer are made of: the words of a question,
 * sentences, a page's summary, timeline entries, identifiers. Pure functions.
 */
import { isTableDelimiter, tableCells, withLinksAsText } from '../search/index.js'

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our should so than that the their them then there these they this to was we were ' +
    'what when where which who whom why will with would you your about after before over under up down out ' +
    'any all some just also more most other such only own same too very s t don now ever us he she his her'
  ).split(' '),
)

/**
 * Folds a word for matching: lower case, and a light suffix strip (plural `s`, `ies`, `ed`,
 * `ing`, a final `e`, a doubled last consonant), so `moved`, `moves` and `move` meet.
 */
export function stem(word: string): string {
  let w = word.toLowerCase()
  if (w.length <= 3 || /\d/.test(w)) return w
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`
  else if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1)
  if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2)
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3)
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1)
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1)
  return w
}

/** The content words of a text, folded, in order of first appearance. */
export function contentTerms(text: string): string[] {
  const seen = new Set<string>()
  for (const raw of text.match(/[\p{L}\p{N}_]+/gu) ?? []) {
    const lower = raw.toLowerCase()
    if (STOP_WORDS.has(lower) || lower.length < 2) continue
    seen.add(stem(lower))
  }
  return [...seen]
}

const QUESTION_WORD = /^(?:what|which|who|whom|whose|where|when|how|why)$/i
const KIND_WORD = /^(?:kinds?|types?|sorts?)$/i
const AUXILIARY = /^(?:does|do|did|is|are|was|were|has|have|had|can|could|would|will|might|should|may)$/i
const JOINER = /^(?:and|both|&)$/i

/**
 * An English question put as the statement its answer would be worded in: the question word,
 * a following "kind of", the first auxiliary and the question mark dropped ("What kind of
 * classes has Jolene joined?" → "classes Jolene joined"). A small sentence encoder puts a
 * question nearest other questions, so a chat's lines that ask about a topic outrank the ones
 * that tell of it; worded as a statement, the question sits nearer the telling. Joiners left
 * dangling where names were taken out ("and", "both") go too. The word lists are English, so a
 * question in another language mostly keeps its words; one left without a content word comes
 * back as written.
 */
export function asStatement(question: string): string {
  let words = question.replace(/[?？]/g, ' ').split(/\s+/).filter(Boolean)
  if (QUESTION_WORD.test(words[0] ?? '')) words = words.slice(1)
  if (KIND_WORD.test(words[0] ?? '') && /^of$/i.test(words[1] ?? '')) words = words.slice(2)
  const auxiliary = words.slice(0, 4).findIndex((w) => AUXILIARY.test(w))
  if (auxiliary >= 0) words.splice(auxiliary, 1)
  words = words.filter((w, i) => !(JOINER.test(w) && (i === 0 || JOINER.test(words[i - 1] ?? ''))))
  const statement = words.join(' ')
  return contentTerms(statement).length > 0 ? statement : question
}

/** How many of `terms` occur in `text`, as a share of them (0–1). */
export function termCoverage(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0
  const words = new Set(contentTerms(text))
  return terms.filter((t) => words.has(t)).length / terms.length
}

/** Sentences of a text: split after . ! ? or at line breaks that end a line of prose or a list item. */
export function sentences(text: string, minChars = 12): string[] {
  const out: string[] = []
  for (const line of text.split(/\n+/)) {
    if (/^\s*#{1,6}\s/.test(line)) continue
    const clean = line
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .replace(/\s+/g, ' ')
      .trim()
    if (clean === '' || /^```/.test(clean) || /^---+$/.test(clean)) continue
    for (const part of clean.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u)) {
      const sentence = part.trim()
      if (sentence.length >= minChars) out.push(sentence)
    }
  }
  return out
}

/** A page's summary: front matter `summary` or `description`, else its first paragraph of prose. */
export function pageSummary(compiledTruth: string, frontmatter: Record<string, unknown>): string {
  for (const key of ['summary', 'description']) {
    const value = frontmatter[key]
    if (typeof value === 'string' && value.trim() !== '') return value.trim()
  }
  for (const block of compiledTruth.split(/\n\s*\n/)) {
    const text = block.trim()
    if (text === '' || /^#{1,6}\s/.test(text) || text.startsWith('```') || text.startsWith('|')) continue
    return text.length > 600 ? `${text.slice(0, 600).replace(/\s+\S*$/, '')} …` : text
  }
  return ''
}

interface TimelineEntry {
  text: string
  date: string | null
  /** 1-based line within the timeline section. */
  line: number
}

const ISO_DATE = /\b(\d{4}-\d{2}-\d{2})\b/

/** A timeline's entries: one per list item or paragraph line, with the first ISO date in it. */
export function timelineEntries(timeline: string): TimelineEntry[] {
  const entries: TimelineEntry[] = []
  timeline.split('\n').forEach((raw, index) => {
    const text = raw.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim()
    if (text === '' || /^#{1,6}\s/.test(text)) return
    entries.push({ text, date: ISO_DATE.exec(text)?.[1] ?? null, line: index + 1 })
  })
  return entries
}

/**
 * Words of a question that look like code identifiers: in backticks, or with an inner capital,
 * an underscore, a dot or `::` between names (`openDatabase`, `parse_args`, `Queue.submit`).
 */
export function identifiersIn(question: string): string[] {
  const found = new Set<string>()
  for (const match of question.matchAll(/`([^`\s]{2,100})`/g)) found.add(match[1]!.replace(/\(\)$/, ''))
  for (const match of question.matchAll(/[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*(?:\(\))?/g)) {
    const word = match[0].replace(/\(\)$/, '')
    if (word.length < 3) continue
    const looksLikeCode = /[a-z][A-Z]/.test(word) || /\w_\w/.test(word) || /\w(?:\.|::)\w/.test(word) || match[0].endsWith('()')
    if (looksLikeCode) found.add(word)
  }
  return [...found].slice(0, 10)
}

/** The 1-based line of `text` in `page`, found by its first line; null when it is not there. */
export function lineOf(page: string, text: string): number | null {
  const first = text
    .split('\n')
    .find((l) => l.trim().length >= 8)
    ?.trim()
  if (first === undefined) return null
  const at = page.indexOf(first)
  if (at < 0) return null
  let line = 1
  for (let i = 0; i < at; i++) if (page.charCodeAt(i) === 10) line++
  return line
}

/** A keyed fact a later one replaced, as `remember --key` closes it: `- **date** | **key:** value (until date)`. */
const SUPERSEDED = /^\s*(?:[-*+]\s+)?\*\*\d{4}-\d{2}-\d{2}\*\*\s*\|\s*\*\*[^*]+:\*\*.*\(until \d{4}-\d{2}-\d{2}\)\s*$/

export function isSupersededFact(line: string): boolean {
  return SUPERSEDED.test(line)
}

/** A question about what held before: the facts since replaced bear on it. */
export function asksAboutThePast(question: string): boolean {
  return /\b(before|previous(?:ly)?|earlier|used to|former(?:ly)?|originally|history|changed?|until|old)\b/i.test(question)
}

/** A timeline without the facts since replaced. */
export function currentFacts(timeline: string): string {
  return timeline
    .split('\n')
    .filter((line) => !isSupersededFact(line))
    .join('\n')
}

/** A line that starts a block of its own: a heading, a list item, a fence, a table row. */
const BLOCK_START = /^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|```|\|)/

/** A line that opens or closes a fenced code block. */
const FENCE = /^\s*(?:```|~~~)/
/** A quote's `>` markers, and the `[!tip]-` that opens an Obsidian callout. */
const QUOTE_MARKERS = /^\s*(?:>\s?)+/
const CALLOUT = /^\[![\w-]+\][+-]?\s*/
/** Strong emphasis, `**word**` or `__word__`, read as its words. */
const STRONG = /(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g
/** An image, `![alt](src)`, which a sentence cannot show. */
const IMAGE = /\s*!\[[^\]\n]*\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g
/** A link, `[text](href)`, read as its text. */
const LINK = /\[([^\]\n]+)\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g
/** A block that is one wikilink or link and nothing else. */
const LINK_ALONE = /^(?:!?\[\[[^\]\n]+\]\]|!?\[[^\]\n]+\]\([^)\s]*\))[.,;]?$/
/** Emphasis, `*word*` or `_word_`, read as its words; not a star or underscore inside a word (`a*b`, `snake_case`). */
const EMPHASIS = /(?<![\p{L}\p{N}*_])([*_])(?=\S)([^*_\n]+?)(?<=\S)\1(?![\p{L}\p{N}*_])/gu
/** A character markdown escaped to show it as written (`\*`), read as that character. */
const ESCAPED = /\\([!-/:-@[-`{-~])/g
/** An HTML tag, `<span style="…">` or `</span>`; the text between tags stays. */
const HTML_TAG = /<\/?[A-Za-z][\w-]*(?:\s[^<>]*)?\/?>/g

/** The line a code chunk's text opens with: `[TypeScript] code/interval.ts:14-17 isDue`. */
const CODE_HEADER = /^\[[^\]\n]+\] \S+:\d+-\d+ [^\n]*\n/
const BLOCK_COMMENT = /\/\*+([\s\S]*?)\*+\//g
const DOCSTRING = /("{3}|'{3})([\s\S]*?)\1/g
/** A line comment, `// …`, `/// …`, `//! …` or `# …`; `#include` and `#!` are not. */
const LINE_COMMENT = /^\s*(?:\/\/+!?|#+)\s+(.*)$/

/**
 * The prose of a code chunk, its comments and docstrings, a paragraph each (consecutive line
 * comments make one); null for a text that is not a code chunk. Its code says nothing in sentences.
 */
function codeProse(text: string): string | null {
  const header = CODE_HEADER.exec(text)
  if (header === null) return null
  const body = text.slice(header[0].length)
  const paragraphs: string[] = []
  for (const [, inner = ''] of body.matchAll(BLOCK_COMMENT)) paragraphs.push(inner.replace(/^[ \t]*\*+[ \t]?/gm, ''))
  for (const [, , inner = ''] of body.matchAll(DOCSTRING)) paragraphs.push(inner)
  let run: string[] = []
  for (const line of body.replace(BLOCK_COMMENT, '').replace(DOCSTRING, '').split('\n')) {
    const comment = LINE_COMMENT.exec(line)
    if (comment) run.push(comment[1]!)
    else if (run.length > 0) {
      paragraphs.push(run.join('\n'))
      run = []
    }
  }
  if (run.length > 0) paragraphs.push(run.join('\n'))
  return paragraphs.join('\n\n')
}

/**
 * Prose without its inline markup: images go, links and HTML read as their text, emphasis as its
 * words. An escaped character (`\*`) is held aside meanwhile, so it is never read as markup, and
 * comes back as itself.
 */
function withoutMarkup(prose: string): string {
  const read = (text: string): string => text.replace(IMAGE, '').replace(LINK, '$1').replace(HTML_TAG, '').replace(STRONG, '$2').replace(EMPHASIS, '$2')
  // A text that already uses those code points is read without holding anything aside.
  if (/[\ue000-\ue07f]/.test(prose)) return read(prose).replace(ESCAPED, '$1')
  const held = prose.replace(ESCAPED, (_, c: string) => String.fromCharCode(HELD + c.charCodeAt(0)))
  return read(held).replace(HELD_CHARS, (c) => String.fromCharCode(c.charCodeAt(0) - HELD))
}
/** Escaped ASCII punctuation is held in the private use area from here. */
const HELD = 0xe000
const HELD_CHARS = /[\ue000-\ue07f]/g

/** A line wholly in strong emphasis, a colon at most after it: `**Storage usage**`. */
const BOLD_LABEL = /^(?:\*\*|__)([^*_\n]+?):?(?:\*\*|__):?$/

/**
 * A table's rows as sentences naming each cell by its column (`Action: Undo; Shortcut: Ctrl+Z.`).
 * Rows without their header (a chunk that begins inside a table) say nothing and are left out.
 */
function tableSentences(lines: readonly string[]): string[] {
  if (lines.length < 3 || !isTableDelimiter(lines[1]!)) return []
  const cells = (row: string): string[] => tableCells(withLinksAsText(row))
  const header = cells(lines[0]!)
  return lines
    .slice(2)
    .map((row) =>
      cells(row)
        .map((cell, i) => (cell === '' ? '' : header[i] ? `${header[i]}: ${cell}` : cell))
        .filter((cell) => cell !== '')
        .join('; '),
    )
    .filter((row) => row !== '')
    .map((row) => (/[.!?]$/.test(row) ? row : `${row}.`))
}

/**
 * The whole sentences of a text as a reader sees them: the lines of a paragraph joined (a wrapped
 * sentence is one sentence), then cut after . ! ? only; a list item or heading stands alone, and a
 * table's row is a sentence naming each cell by its column. A piece that opens in lower case is the
 * tail of a sentence begun before the text, and is left out, unless the text is `whole` (a chat
 * line begins where its speaker began). A sentence quoted as an answer carries no markup: wikilinks
 * and links read as the text they show, emphasis as its words, escaped characters as
 * themselves, images and HTML tags go, quotes lose their `>` and a callout's title line is a
 * heading. Code is not sentences: a fence is left out, and of a code chunk only its comments are
 * read.
 */
export function wholeSentences(text: string, options: { minChars?: number; whole?: boolean } = {}): string[] {
  const { minChars = 12, whole = false } = options
  const blocks: string[] = []
  let current: string[] = []
  const close = (): void => {
    if (current.length > 0) blocks.push(current.join(' '))
    current = []
  }
  let quoting = false
  let fenced = false
  let table: string[] = []
  for (const raw of (codeProse(text) ?? text).split('\n')) {
    if (table.length > 0 && !/^\s*\|/.test(raw)) {
      blocks.push(...tableSentences(table))
      table = []
    }
    if (FENCE.test(raw)) fenced = !fenced
    if (fenced) {
      close()
      continue
    }
    // A quote is a block of its own, whose lines make one paragraph as the lines outside it do.
    const quote = QUOTE_MARKERS.test(raw)
    const line = raw.replace(QUOTE_MARKERS, '')
    const edge = quote !== quoting
    quoting = quote
    if (line.trim() === '' || FENCE.test(line) || /^\s*---+\s*$/.test(line)) {
      close()
      continue
    }
    if (edge || BLOCK_START.test(line)) close()
    if (!quote && line.trimStart().startsWith('|')) {
      table.push(line)
      continue
    }
    // A callout's first line is its title, which stands as a heading.
    if (quote && CALLOUT.test(line.trim())) {
      blocks.push(`# ${line.trim().replace(CALLOUT, '')}`)
      continue
    }
    // A line that is a bold label alone ("**Storage usage**") names what the next line says.
    const label = BOLD_LABEL.exec(line.trim())
    current.push(label ? `${label[1]!.trim()}:` : line.trim())
    // A heading is one line.
    if (/^\s*#{1,6}\s/.test(line)) close()
  }
  close()
  blocks.push(...tableSentences(table))
  const out: string[] = []
  blocks.forEach((block, index) => {
    if (/^#{1,6}\s/.test(block) || block.startsWith('|')) return
    const item = block.replace(/^(?:[-*+]|\d+[.)])\s+/, '')
    // A link alone (a list of related pages) names a page and says nothing of it.
    if (LINK_ALONE.test(item)) return
    const clean = withLinksAsText(item)
      .split(/(`[^`\n]*`)/)
      // Inline code is quoted as written.
      .map((part, i) => (i % 2 === 1 ? part : withoutMarkup(part)))
      .join('')
      .replace(/\s+/g, ' ')
      .trim()
    clean.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(*[])/u).forEach((part, at) => {
      const sentence = part.trim()
      if (!whole && index === 0 && at === 0 && /^\p{Ll}/u.test(sentence)) return
      if (sentence.length >= minChars) out.push(sentence)
    })
  })
  return out
}
