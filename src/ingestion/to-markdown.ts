import { shapeCapture } from '../capture/index.js'
import type { TextContentType } from './event.js'

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** Readable text of an HTML document: scripts and styles dropped, block ends as line breaks. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|tr|section|article|blockquote|pre)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
        // A reference past Unicode (`&#9999999;`) or to half a surrogate pair stays as written.
        return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole
      }
      return ENTITIES[name.toLowerCase()] ?? whole
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
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
