/**
 * Markdown syntax that means nothing to a reader of a one-line snippet: wikilinks read as the
 * text Obsidian would show, block ids and table pipes go. Prose only: in code, `[[`, `^x` and `|`
 * are code and are kept as written.
 */

/** How many letters of a longer query word stand for it: a cheap stand-in for the stemmer. */
export const STEM_PREFIX = 4

/** `[[target#heading|alias]]` and `![[embed]]`; the target never spans a line. */
const WIKILINK = /!?\[\[([^\]\n|]*?)(?:\|([^\]\n]*))?\]\]/g

/** A block id at the end of a line (`text ^b15695`) or alone on its line. */
const BLOCK_ID = /(^|[ \t])\^[A-Za-z0-9-]+[ \t]*$/gm

/** A table's delimiter row: `| --- | :---: |` or `---|---`. */
const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$|^[ \t]*\|[ \t]*:?-+:?[ \t]*\|[ \t]*$/

/** What a wikilink shows: its alias, else its target with a heading as `Page > Heading` and a block reference dropped. */
function wikilinkText(target: string, alias: string | undefined): string {
  if (alias !== undefined && alias.trim() !== '') return alias.trim()
  const [page = '', ...anchors] = target.split('#')
  const headings = anchors.filter((a) => a !== '' && !a.startsWith('^'))
  return [page.trim(), ...headings.map((h) => h.trim())].filter((part) => part !== '').join(' > ')
}

/** Whether a line is a table's delimiter row. */
export function isTableDelimiter(line: string): boolean {
  return DELIMITER_ROW.test(line)
}

/** The cells of a table row, in column order, empty ones kept; an escaped `\|` stays a pipe inside its cell. */
export function tableCells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'))
}

/** Table rows lose their pipes (an escaped `\|` stays a pipe); the delimiter row goes entirely. */
function withoutTablePipes(text: string): string {
  const lines = text.split('\n')
  const inTable = new Array<boolean>(lines.length).fill(false)
  lines.forEach((line, i) => {
    if (!DELIMITER_ROW.test(line)) return
    // The header above the delimiter and every piped line after it belong to the table.
    if (i > 0 && lines[i - 1]!.includes('|')) inTable[i - 1] = true
    inTable[i] = true
    for (let j = i + 1; j < lines.length && lines[j]!.includes('|'); j++) inTable[j] = true
  })
  return lines
    .map((line, i) => {
      if (!inTable[i] && !/^[ \t]*\|.*\|[ \t]*$/.test(line)) return line
      if (DELIMITER_ROW.test(line)) return ''
      return tableCells(line)
        .filter((cell) => cell !== '')
        .join('  ')
    })
    .join('\n')
}

/** Markdown prose with its wikilinks as the text they show and without block ids; lines and tables kept. */
export function withLinksAsText(markdown: string): string {
  return markdown.replace(WIKILINK, (_, target: string, alias: string | undefined) => wikilinkText(target, alias)).replace(BLOCK_ID, '$1')
}

/** Markdown prose as a reader sees it, lines kept: wikilinks as their text, no block ids, no table pipes. */
export function plainSnippetText(markdown: string): string {
  return withoutTablePipes(withLinksAsText(markdown))
}

/** Where the words of a query (or their first four letters, as the snippet window uses) occur in a text: sorted, non-overlapping [start, end) spans. */
export function matchSpans(text: string, terms: readonly string[]): Array<[number, number]> {
  const lower = text.toLowerCase()
  const spans: Array<[number, number]> = []
  for (const term of terms) {
    const probe = term.length > STEM_PREFIX ? term.slice(0, STEM_PREFIX) : term
    if (probe === '') continue
    for (let at = lower.indexOf(probe); at >= 0; at = lower.indexOf(probe, at + probe.length)) {
      // A match is the whole word it starts in, from the probe to the word's end.
      let end = at + probe.length
      while (end < text.length && /[\p{L}\p{N}_]/u.test(text[end]!)) end++
      spans.push([at, end])
    }
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1])
  const merged: Array<[number, number]> = []
  for (const span of spans) {
    const last = merged[merged.length - 1]
    if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1])
    else merged.push([span[0], span[1]])
  }
  return merged
}

/** The text with each matched span wrapped by `mark`. */
export function markMatches(text: string, terms: readonly string[], mark: (word: string) => string): string {
  let out = ''
  let from = 0
  for (const [start, end] of matchSpans(text, terms)) {
    out += text.slice(from, start) + mark(text.slice(start, end))
    from = end
  }
  return out + text.slice(from)
}
