import { shapeCapture } from '../capture/index.js'
import type { TextContentType } from './event.js'

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

const DROPPED_OPEN = /<(script|style|head)/gi

/**
 * The HTML without its script, style and head elements, each from its opening tag to the first
 * closing tag of its name. An element never closed stays, and so do the later ones of its name:
 * looking for their closing tag again from each of them cost the square of a page of many.
 */
function dropElements(html: string): string {
  let out = ''
  let copied = 0
  const unclosed = new Set<string>()
  DROPPED_OPEN.lastIndex = 0
  for (let open = DROPPED_OPEN.exec(html); open !== null; open = DROPPED_OPEN.exec(html)) {
    const name = open[1]!.toLowerCase()
    if (unclosed.has(name)) continue
    const close = new RegExp(`</${name}\\s*>`, 'gi')
    close.lastIndex = DROPPED_OPEN.lastIndex
    if (close.exec(html) === null) {
      unclosed.add(name)
      DROPPED_OPEN.lastIndex = open.index + 1
      continue
    }
    out += html.slice(copied, open.index)
    copied = close.lastIndex
    DROPPED_OPEN.lastIndex = close.lastIndex
  }
  return out + html.slice(copied)
}

/** Every tag removed; text after the last `>` is kept as it is, so each `<` is read once. */
function dropTags(text: string): string {
  const end = text.lastIndexOf('>') + 1
  return text.slice(0, end).replace(/<[^>]*>/g, '') + text.slice(end)
}

/** Readable text of an HTML document: scripts and styles dropped, block ends as line breaks. */
function htmlToText(html: string): string {
  return (
    dropTags(
      dropElements(html)
        .replace(/<br\s*\/?>/gi, '\n')
        .replace(/<\/(p|div|li|h[1-6]|tr|section|article|blockquote|pre)\s*>/gi, '\n\n'),
    )
      .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
        if (name[0] === '#') {
          const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
          // A reference past Unicode (`&#9999999;`) or to half a surrogate pair stays as written.
          return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole
        }
        return ENTITIES[name.toLowerCase()] ?? whole
      })
      // From the first blank of a run only: tried at each blank, a long run cost its square.
      .replace(/(?<![ \t])[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  )
}

/**
 * The markdown page for captured content. Markdown is kept as written (it is the author's own
 * page); plain text and HTML are shaped like `brain capture` shapes prose; JSON is kept verbatim
 * in a fenced block under a heading.
 */
export function eventToMarkdown(type: TextContentType, content: string, capturedVia: string, now: Date): string {
  switch (type) {
    case 'text/markdown':
      return content
    case 'text/plain':
      return shapeCapture(content, { capturedVia, now }).markdown
    case 'text/html':
      return shapeCapture(htmlToText(content) || '(empty HTML document)', { capturedVia, now }).markdown
    case 'application/json': {
      const fence = content.includes('```') ? '~~~~' : '```'
      return shapeCapture(`# JSON capture (${capturedVia})\n\n${fence}json\n${content.trim()}\n${fence}`, { capturedVia, now }).markdown
    }
  }
}
