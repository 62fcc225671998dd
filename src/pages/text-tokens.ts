/**
 * The tokens of PostgreSQL's default text-search parser for the plain part of a text, read in
 * JavaScript. The parser ends every token at ASCII white space (outside an XML tag, see scanText),
 * so a text is cut there into groups. A group of ASCII letter and digit runs separated by the
 * punctuation below is read here: each letter run is an `asciiword`, each digit run a `uint`, the
 * rest blank; a word may end its group with one `.` or `:`. Any other group (a hyphen, a dot
 * between two characters, a slash, an at sign, a letter beside a digit, a possible tag, anything
 * outside ASCII) is left to the database's own parser. `test/pages/search-vectors-here.test.ts`
 * compares both.
 */

/** Token type ids of the default parser (ts_token_type('default')); the analyser checks them. */
export const ASCIIWORD = 1
export const UINT = 22

/** Where a scan puts what it reads, as offsets into the text. */
interface TokenSink {
  /** A letter run (asciiword) or a digit run (uint). */
  plain(text: string, start: number, end: number, type: number): void
  /** A group for the database's parser. */
  group(text: string, start: number, end: number): void
}

const enum Kind {
  Space,
  Letter,
  Digit,
  Blank,
  Other,
}

/** The kind of every ASCII code; anything above is Other. */
const KINDS: Kind[] = (() => {
  const kinds = new Array<Kind>(128).fill(Kind.Other)
  for (const c of '\t\n\v\f\r ') kinds[c.charCodeAt(0)] = Kind.Space
  for (let c = 65; c <= 90; c++) kinds[c] = Kind.Letter
  for (let c = 97; c <= 122; c++) kinds[c] = Kind.Letter
  for (let c = 48; c <= 57; c++) kinds[c] = Kind.Digit
  for (const c of '!"#$%\'()*,;=?[]^`{|}') kinds[c.charCodeAt(0)] = Kind.Blank
  return kinds
})()

const kindOf = (code: number): Kind => (code < 128 ? KINDS[code]! : Kind.Other)

/** The end of a plain group's body (before a word's final `.` or `:`), or -1 when the group is not plain. */
function plainEnd(text: string, start: number, end: number): number {
  let bodyEnd = end
  const last = text.charCodeAt(end - 1)
  if ((last === 46 || last === 58) && end - 1 > start && kindOf(text.charCodeAt(end - 2)) === Kind.Letter) bodyEnd = end - 1
  let previous = Kind.Blank
  for (let i = start; i < bodyEnd; i++) {
    const kind = kindOf(text.charCodeAt(i))
    if (kind === Kind.Other || kind === Kind.Space) return -1
    if ((kind === Kind.Letter && previous === Kind.Digit) || (kind === Kind.Digit && previous === Kind.Letter)) return -1
    previous = kind
  }
  return bodyEnd
}

function emitPlain(text: string, start: number, end: number, sink: TokenSink): void {
  let run = -1
  let runKind = Kind.Blank
  for (let i = start; i <= end; i++) {
    const kind = i < end ? kindOf(text.charCodeAt(i)) : Kind.Blank
    if (kind === runKind) continue
    if (run !== -1) sink.plain(text, run, i, runKind === Kind.Letter ? ASCIIWORD : UINT)
    run = kind === Kind.Letter || kind === Kind.Digit ? i : -1
    runKind = kind
  }
}

/** Whether the `<` at `i` may open a tag: an ASCII letter, `/`, `:` or `_` follows it. */
function opensTag(text: string, i: number): boolean {
  const next = text.charCodeAt(i + 1)
  return next === 47 || next === 58 || next === 95 || kindOf(next) === Kind.Letter
}

/**
 * Reads the text group by group, in order. A tag may hold white space, so a group with a `<` that
 * may open one reaches on to the first `>` after it (the parser has decided about the tag there:
 * readableHere refuses quotes, comments and declarations, where it would not have) and then to the
 * next white space; without a `>` it is the rest of the text.
 */
export function scanText(text: string, sink: TokenSink): void {
  const n = text.length
  let i = 0
  while (i < n) {
    while (i < n && kindOf(text.charCodeAt(i)) === Kind.Space) i++
    if (i >= n) break
    const start = i
    while (i < n && kindOf(text.charCodeAt(i)) !== Kind.Space) i++
    let tagged = false
    // The first '>' after the last '<' looked at, kept while it is still ahead: a file of many
    // comparisons would otherwise be searched to its end once for each of them.
    let close = -2
    for (let k = start; k < i; k++) {
      if (text.charCodeAt(k) !== 60 || !opensTag(text, k)) continue
      tagged = true
      if (close !== -1 && close <= k) close = text.indexOf('>', k + 1)
      if (close === -1) {
        i = n
        break
      }
      if (close >= i) {
        i = close + 1
        while (i < n && kindOf(text.charCodeAt(i)) !== Kind.Space) i++
      }
    }
    const body = tagged ? -1 : plainEnd(text, start, i)
    if (body === -1) sink.group(text, start, i)
    else emitPlain(text, start, body, sink)
  }
}

/** A group's tokens when it is plain, else null: what the tests compare with the database's parser. */
export function plainTokens(group: string): Array<{ type: number; text: string }> | null {
  const tokens: Array<{ type: number; text: string }> = []
  let plain = true
  scanText(group, {
    plain: (text, start, end, type) => tokens.push({ type, text: text.slice(start, end) }),
    group: () => (plain = false),
  })
  return plain ? tokens : null
}

/** Characters brain_search_text spaces out (CJK): a text holding one is analysed by the database. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/

/**
 * Whether this process may cut the text at all: no CJK, none of the two characters that frame the
 * parser's answer, and no `<` whose tag the parser would decide past the first `>` (a quote inside
 * it, a comment `<!`, a declaration `<?`).
 */
export function readableHere(text: string): boolean {
  if (CJK.test(text) || /[\x01\x02]/.test(text)) return false
  // The next '>' and the next quote, each kept while it is still ahead (as in scanText).
  let close = -2
  let quote = -2
  for (let k = text.indexOf('<'); k !== -1; k = text.indexOf('<', k + 1)) {
    const next = text.charCodeAt(k + 1)
    if (next === 33 || next === 63) return false
    if (!opensTag(text, k)) continue
    if (close !== -1 && close <= k) close = text.indexOf('>', k + 1)
    if (quote !== -1 && quote < k) quote = nextQuote(text, k)
    if (quote !== -1 && (close === -1 || quote < close)) return false
  }
  return true
}

/** The first quote (either kind) at or after `from`, or -1. */
function nextQuote(text: string, from: number): number {
  const double = text.indexOf('"', from)
  const single = text.indexOf("'", from)
  return double === -1 ? single : single === -1 ? double : Math.min(double, single)
}

/** The first `n` characters (code points, as SQL's left() counts them). */
export function leftCharacters(text: string, n: number): string {
  if (text.length <= n) return text
  let count = 0
  let i = 0
  while (i < text.length && count < n) {
    const code = text.charCodeAt(i)
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1
    count++
  }
  return text.slice(0, i)
}
