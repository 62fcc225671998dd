/**
 * OPML outlines (what Workflowy, Dynalist, OmniOutliner and feed readers export) → one page of
 * type `outline`: the outline as a nested markdown list, an item's note under it, a completed
 * item as a checked task, an item with a URL as a link. The file is read as text, tag by tag,
 * with no DTD and no entity but the five of XML and character references, so nothing in it is
 * fetched or expanded.
 */
import { ConvertError } from './errors.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { decodeXmlText } from './xml-text.js'

/**
 * A tag and its attributes. Nothing in it holds `<` (XML escapes it in values), so a tag never
 * closed is read only up to the next one: a file of many cost the square of its length.
 */
const TAG = /<(\/?)(outline|title|body)\b((?:[^<>"']|"[^"<]*"|'[^'<]*')*?)(\/?)>/gi
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g
/** Deeper than anyone outlines; a hostile file cannot make the list unbounded in width. */
const MAX_DEPTH = 40

function attributes(raw: string): Map<string, string> {
  return new Map(Array.from(raw.matchAll(ATTRIBUTE), (m) => [m[1]!.toLowerCase(), decodeXmlText(m[2] ?? m[3] ?? '')]))
}

/** An item's text: the bold, italic and links an outliner writes as HTML kept as markdown, other tags dropped. */
function itemText(html: string): string {
  return html
    .replace(/<\s*(b|strong)\s*>([^<]*)<\s*\/\s*\1\s*>/gi, '**$2**')
    .replace(/<\s*(i|em)\s*>([^<]*)<\s*\/\s*\1\s*>/gi, '_$2_')
    .replace(/<a\s[^>]*href\s*=\s*"(https?:[^"]*)"[^>]*>([^<]*)<\/a>/gi, '[$2]($1)')
    .replace(/<[^>]*>/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
}

function itemLine(attrs: Map<string, string>, depth: number): string[] {
  const text = itemText(attrs.get('text') ?? attrs.get('title') ?? '')
  const url = attrs.get('url') ?? attrs.get('htmlurl') ?? attrs.get('xmlurl')
  const shown = url !== undefined && /^https?:/i.test(url) ? `[${text || url}](${url})` : text
  const done = ['_complete', 'complete', 'checked'].some((k) => attrs.get(k) === 'true')
  const indent = '  '.repeat(Math.min(depth, MAX_DEPTH))
  const lines = [`${indent}- ${done ? '[x] ' : ''}${shown}`]
  const note = attrs.get('_note')?.trim()
  if (note !== undefined && note !== '') lines.push(...note.split(/\r?\n/).map((l) => `${indent}  ${l}`))
  return lines
}

export function convertOpml(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'opml'> {
  const xml = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)
  if (!/<opml\b/i.test(xml)) throw new ConvertError('convert_unsupported', `${input.name}: not an OPML file`)
  let title: string | undefined
  let inBody = false
  let depth = 0
  let items = 0
  const lines: string[] = []
  for (const m of xml.matchAll(TAG)) {
    const [whole, closing, name, raw, selfClosing] = m
    const tag = name!.toLowerCase()
    if (tag === 'title' && closing === '' && !inBody && title === undefined) {
      const end = xml.indexOf('</title>', m.index! + whole.length)
      if (end > 0) title = decodeXmlText(xml.slice(m.index! + whole.length, end)).trim() || undefined
    } else if (tag === 'body') inBody = closing === '' && selfClosing === ''
    else if (tag === 'outline' && inBody && closing === '/') depth = Math.max(0, depth - 1)
    else if (tag === 'outline' && inBody) {
      lines.push(...itemLine(attributes(raw!), depth))
      items++
      if (selfClosing === '') depth++
    }
  }
  if (items === 0) throw new ConvertError('convert_unsupported', `${input.name}: an outline with no items`)
  const name = title ?? input.name.replace(/^.*\//, '').replace(/\.opml$/i, '')
  return {
    format: 'opml',
    drafts: [{ slugHint: name.toLowerCase(), title: name, frontmatter: { type: 'outline', items }, body: `# ${name}\n\n${lines.join('\n')}\n` }],
    counts: { outline_items: items },
  }
}
