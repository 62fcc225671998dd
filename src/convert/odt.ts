/**
 * OpenDocument text (`.odt`, what LibreOffice and OpenOffice write) → one page: headings at their
 * outline levels, paragraphs, nested lists, links and tables as markdown. Only `content.xml` and
 * `meta.xml` are read: macros, scripts and embedded objects are never opened, and the archive is
 * checked against expansion bombs before anything is inflated.
 */
import { ConvertError } from './errors.js'
import { markdownTable } from './render.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { decodeXmlText } from './xml-text.js'
import { zipEntries } from './zip-read.js'

const utf8 = new TextDecoder('utf-8', { fatal: false })
/** The tags that shape the text; everything else (styles, frames, fields) gives only its text. */
const TOKEN =
  /<(\/?)(text:h|text:p|text:list-item|text:list|text:a|text:s|text:tab|text:line-break|table:table-row|table:table-cell|table:table|office:text|text:note)\b([^>]*?)(\/?)>|<[^>]*>|([^<]+)/g

interface Block {
  kind: 'heading' | 'paragraph' | 'row'
  level: number
  text: string
  cells?: string[]
}

function attribute(raw: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(raw)
  return m === null ? undefined : decodeXmlText(m[1]!)
}

/** The document body as blocks, read tag by tag in one pass. */
function blocks(xml: string): Block[] {
  const out: Block[] = []
  let listDepth = 0
  let inNote = 0
  let current: Block | undefined
  let link: { href: string; start: number } | undefined
  let row: string[] | undefined
  let cell: string[] | undefined
  const append = (text: string): void => {
    if (inNote > 0) return
    if (current !== undefined) current.text += text
  }
  for (const m of xml.matchAll(TOKEN)) {
    const [, closing, tag, raw, selfClosing, text] = m
    if (text !== undefined) {
      append(decodeXmlText(text))
      continue
    }
    if (tag === undefined) continue
    const opening = closing === '' && selfClosing === ''
    switch (tag) {
      case 'text:note':
        if (selfClosing === '') inNote += opening ? 1 : -1
        break
      case 'text:list':
        if (selfClosing === '') listDepth = Math.max(0, listDepth + (opening ? 1 : -1))
        break
      case 'text:h':
      case 'text:p':
        if (opening && inNote === 0) {
          const level = tag === 'text:h' ? Math.min(6, Math.max(1, Number(attribute(raw!, 'text:outline-level') ?? 1))) : listDepth
          current = { kind: tag === 'text:h' ? 'heading' : 'paragraph', level, text: '' }
        } else if (closing === '/' && current !== undefined && inNote === 0) {
          if (cell !== undefined) cell.push(current.text.trim())
          else out.push(current)
          current = undefined
        }
        break
      case 'text:a':
        if (opening) link = { href: attribute(raw!, 'xlink:href') ?? '', start: current?.text.length ?? 0 }
        else if (closing === '/' && link !== undefined && current !== undefined) {
          const shown = current.text.slice(link.start)
          if (/^(https?:|mailto:)/i.test(link.href) && shown.trim() !== '') current.text = `${current.text.slice(0, link.start)}[${shown}](${link.href})`
          link = undefined
        }
        break
      case 'text:s':
        append(' '.repeat(Math.min(100, Number(attribute(raw!, 'text:c') ?? 1))))
        break
      case 'text:tab':
        append('\t')
        break
      case 'text:line-break':
        append(' ')
        break
      case 'table:table-row':
        if (opening) row = []
        else if (closing === '/' && row !== undefined) {
          out.push({ kind: 'row', level: 0, text: '', cells: row })
          row = undefined
        }
        break
      case 'table:table-cell':
        if (opening) cell = []
        else if (cell !== undefined) {
          row?.push(cell.join(' ').replace(/\|/g, '\\|'))
          cell = undefined
        }
        break
      default:
        break
    }
  }
  return out
}

function markdown(list: Block[]): string {
  const parts: string[] = []
  for (let i = 0; i < list.length; i++) {
    const b = list[i]!
    if (b.kind === 'row') {
      const rows: string[][] = []
      while (i < list.length && list[i]!.kind === 'row') rows.push(list[i++]!.cells!)
      i--
      parts.push(markdownTable(rows))
      continue
    }
    const text = b.text.replace(/[ \t]+/g, ' ').trim()
    if (text === '') continue
    if (b.kind === 'heading') parts.push(`${'#'.repeat(b.level)} ${text}`)
    else if (b.level > 0) {
      // Items of one list stay one markdown list: no blank line between them.
      const item = `${'  '.repeat(Math.min(b.level - 1, 8))}- ${text}`
      const previous = list[i - 1]
      if (previous !== undefined && previous.kind === 'paragraph' && previous.level > 0 && parts.length > 0) parts[parts.length - 1] += `\n${item}`
      else parts.push(item)
    } else parts.push(text)
  }
  return parts.join('\n\n')
}

export function convertOdt(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'odt'> {
  const entries = zipEntries(input.bytes, input.name)
  const content = entries.get('content.xml')
  if (content === undefined) throw new ConvertError('convert_unsupported', `${input.name}: not an OpenDocument file (no content.xml)`)
  const xml = utf8.decode(content())
  const start = xml.indexOf('<office:text')
  if (start < 0) throw new ConvertError('convert_unsupported', `${input.name}: not an OpenDocument text`)
  let body = markdown(blocks(xml.slice(start)))
  if (body === '') throw new ConvertError('convert_unsupported', `${input.name}: the document has no text`)
  const meta = entries.get('meta.xml')
  const declared = meta === undefined ? undefined : /<dc:title>([^<]*)<\/dc:title>/.exec(utf8.decode(meta()))?.[1]
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.odt$/i, '')
  const lead = /^# (.+)(?:\n+|$)/.exec(body)
  const title = (declared === undefined ? '' : decodeXmlText(declared).trim()) || lead?.[1]?.trim() || fileTitle
  if (lead === null) body = `# ${title}\n\n${body}`
  return { format: 'odt', drafts: [{ slugHint: title.toLowerCase(), title, frontmatter: { type: 'document' }, body: `${body}\n` }], counts: {} }
}
