/**
 * The markup of Telegram Desktop's HTML export as markdown: a message's text (bold, italics,
 * code, links, quotes and line breaks) and the small reads of its DOM the chat reader makes. The
 * documents are parsed by linkedom and never run; nesting deeper than an export's is refused
 * before parsing.
 */
import { ConvertError } from './errors.js'
import { fencedCode } from './render.js'

/** The pieces of linkedom's DOM this reader uses (the project compiles without the DOM library). */
interface DomNode {
  nodeType: number
  nodeName: string
  textContent: string | null
  childNodes: ArrayLike<DomNode>
}

export interface DomElement extends DomNode {
  children: ArrayLike<DomElement>
  getAttribute(name: string): string | null
  querySelector(selector: string): DomElement | null
  querySelectorAll(selector: string): ArrayLike<DomElement>
}

const TEXT_NODE = 3
const ELEMENT_NODE = 1

/**
 * The export nests a message's markup about ten elements deep. Far deeper nesting is no export
 * of Telegram's, and the HTML parser's time grows with the square of it.
 */
const MAX_NESTING = 500
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'])

/**
 * Refuses a document nested deeper than an export ever is, judged in one pass over its tags
 * before the parser sees it.
 */
export function checkNesting(html: string, name: string): void {
  let depth = 0
  for (let at = html.indexOf('<'); at !== -1; at = html.indexOf('<', at + 1)) {
    const next = html.charCodeAt(at + 1)
    if (next === 0x2f /* / */) {
      depth = Math.max(0, depth - 1)
      continue
    }
    const isLetter = (next >= 0x41 && next <= 0x5a) || (next >= 0x61 && next <= 0x7a)
    if (!isLetter) continue
    let end = at + 1
    while (end < html.length && end - at < 12 && /[A-Za-z0-9]/.test(html[end]!)) end++
    const close = html.indexOf('>', end)
    if (close === -1) break
    const tag = html.slice(at + 1, end).toLowerCase()
    const selfClosed = html.charCodeAt(close - 1) === 0x2f
    at = close
    if (selfClosed || VOID_ELEMENTS.has(tag)) continue
    if (++depth > MAX_NESTING) throw new ConvertError('convert_corrupt', `${name}: elements nested more than ${MAX_NESTING} deep are no Telegram export`)
  }
}

/** Whitespace as a browser shows it: runs of it are one space. */
const collapse = (text: string): string => text.replace(/\s+/g, ' ')

export function hasClass(e: DomElement, name: string): boolean {
  return (e.getAttribute('class') ?? '').split(/\s+/).includes(name)
}

export function childWith(e: DomElement, className: string): DomElement | undefined {
  return Array.from(e.children).find((c) => hasClass(c, className))
}

/** Text of an element's own text nodes, its elements left out (a name without the `via @bot` beside it). */
export function ownText(e: DomElement): string {
  return collapse(
    Array.from(e.childNodes)
      .filter((n) => n.nodeType === TEXT_NODE)
      .map((n) => n.textContent ?? '')
      .join(''),
  ).trim()
}

/** `**x**` around what has words, the spaces at its ends left outside. */
function wrap(inner: string, mark: string): string {
  const core = inner.trim()
  if (core === '') return inner
  const lead = inner.slice(0, inner.length - inner.trimStart().length)
  const trail = inner.slice(inner.trimEnd().length)
  return `${lead}${mark}${core}${mark}${trail}`
}

function codeSpan(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``
}

/** The text of preformatted code: line breaks are `<br>` or written out. */
function preText(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return node.textContent ?? ''
  if (node.nodeName === 'BR') return '\n'
  return Array.from(node.childNodes).map(preText).join('')
}

/** Links the page may keep: the web, mail and Telegram's own; the app's script links are text. */
const KEPT_LINK = /^(?:https?:|mailto:|tg:)/i

/** A message's text as markdown: bold, italics, code, links and line breaks kept. */
export function markdownOf(node: DomNode): string {
  if (node.nodeType === TEXT_NODE) return collapse(node.textContent ?? '')
  if (node.nodeType !== ELEMENT_NODE) return ''
  const e = node as DomElement
  const inner = (): string => Array.from(e.childNodes).map(markdownOf).join('')
  switch (e.nodeName) {
    case 'BR':
      return '\n'
    case 'STRONG':
    case 'B':
      return wrap(inner(), '**')
    case 'EM':
    case 'I':
      return wrap(inner(), '_')
    case 'S':
    case 'STRIKE':
    case 'DEL':
      return wrap(inner(), '~~')
    case 'CODE':
      return codeSpan(e.textContent ?? '')
    case 'PRE': {
      const language = /(?:^|\s)language-([\w+-]{1,40})/.exec(`${e.getAttribute('class') ?? ''} ${e.querySelector('code')?.getAttribute('class') ?? ''}`)?.[1] ?? ''
      return `\n${fencedCode(preText(e).replace(/^\n/, '').replace(/\n$/, ''), language)}\n`
    }
    case 'A': {
      const text = inner()
      const href = (e.getAttribute('href') ?? '').trim()
      if (!KEPT_LINK.test(href) || text.trim() === '' || text.trim() === href) return text
      return `[${text.trim()}](${href.replace(/[()\s]/g, encodeURIComponent)})`
    }
    case 'BLOCKQUOTE':
      return `\n${inner()
        .trim()
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}\n`
    case 'SCRIPT':
    case 'STYLE':
      return ''
    default:
      return inner()
  }
}

/** The lines of a text trimmed, line breaks kept; code blocks are left as written. */
export function tidy(markdown: string): string {
  let fence = ''
  return markdown
    .split('\n')
    .map((line) => {
      const run = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
      if (fence === '') {
        fence = run ?? ''
        return line.trim()
      }
      // Only a run as long as the opening one closes the block: the code may hold shorter ones.
      if (run === undefined || run[0] !== fence[0] || run.length < fence.length) return line
      fence = ''
      return line.trim()
    })
    .join('\n')
    .trim()
}

export function titleOf(e: DomElement | null | undefined): string {
  return collapse(e?.textContent ?? '').trim()
}
