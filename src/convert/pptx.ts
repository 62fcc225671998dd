/**
 * PowerPoint `.pptx` → one page of type `presentation`: a `## Slide N` section per slide in the
 * deck's order, headed by the slide's title, its text as a list at the levels it was written,
 * tables as markdown tables, then the speaker notes. Only the slides' XML is read: macros,
 * embedded objects and media are never opened, and the archive is checked against expansion
 * bombs before anything is inflated.
 */
import { ConvertError } from './errors.js'
import { markdownTable } from './render.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { decodeXmlText } from './xml-text.js'
import { archivePath, zipEntries } from './zip-read.js'

const utf8 = new TextDecoder('utf-8', { fatal: false })
const RUN_TEXT = /<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>|<a:br\s*\/>/g

/**
 * The inside of each element that `open` starts and `</name>` ends, in document order, found
 * with one forward scan: an element left open ends the scan rather than being searched for
 * again from every later start, which a crafted slide could make quadratic.
 */
function elements(xml: string, open: RegExp, closeOf: (tag: string) => string): Array<{ tag: string; inner: string }> {
  const found: Array<{ tag: string; inner: string }> = []
  const opener = new RegExp(open.source, 'g')
  for (let m = opener.exec(xml); m !== null; m = opener.exec(xml)) {
    const start = xml.indexOf('>', m.index) + 1
    if (start === 0) break
    // `<a:p/>`: an empty element, whose close would be the next one's.
    if (xml[start - 2] === '/') {
      opener.lastIndex = start
      continue
    }
    const end = xml.indexOf(closeOf(m[0]), start)
    if (end < 0) break
    found.push({ tag: m[0], inner: xml.slice(start, end) })
    opener.lastIndex = end
  }
  return found
}

/** A paragraph's text (line breaks kept) and its list level. */
function paragraphs(xml: string): Array<{ text: string; level: number }> {
  return elements(xml, /<a:p[\s>]/, () => '</a:p>')
    .map(({ inner }) => {
      const level = Number(/<a:pPr\b[^>]*\blvl="(\d)"/.exec(inner)?.[1] ?? 0)
      const text = Array.from(inner.matchAll(RUN_TEXT), (r) => (r[0].startsWith('<a:br') ? '\n' : decodeXmlText(r[1]!))).join('')
      return { text: text.replace(/[ \t]+/g, ' ').trim(), level }
    })
    .filter((p) => p.text !== '')
}

function cellText(xml: string): string {
  return paragraphs(xml)
    .map((p) => p.text.replace(/\n/g, ' '))
    .join(' ')
    .replace(/\|/g, '\\|')
}

function table(xml: string): string {
  const rows = elements(xml, /<a:tr[\s>]/, () => '</a:tr>').map((r) => elements(r.inner, /<a:tc[\s>]/, () => '</a:tc>').map((c) => cellText(c.inner)))
  if (rows.length === 0) return ''
  return markdownTable(rows)
}

/** A slide's title, and its other text as list items and tables in the order the shapes come. */
function slideText(xml: string): { title: string | undefined; body: string[] } {
  let title: string | undefined
  const body: string[] = []
  for (const shape of elements(xml, /<p:sp>|<p:graphicFrame>/, (tag) => (tag === '<p:sp>' ? '</p:sp>' : '</p:graphicFrame>'))) {
    if (shape.tag !== '<p:sp>') {
      const t = table(shape.inner)
      if (t !== '') body.push(t)
      continue
    }
    const sp = shape.inner
    const isTitle = /<p:ph\b[^>]*\btype="(?:title|ctrTitle)"/.test(sp)
    const paras = paragraphs(sp)
    if (isTitle && title === undefined && paras.length > 0) {
      title = paras.map((p) => p.text.replace(/\n/g, ' ')).join(' ')
      continue
    }
    const items = paras.map((p) => `${'  '.repeat(Math.min(p.level, 8))}- ${p.text.replace(/\n/g, ' ')}`)
    if (items.length > 0) body.push(items.join('\n'))
  }
  return { title, body }
}

/** The notes placeholder's text of a notes slide (not its slide image or page number). */
function notesText(xml: string): string {
  const shapes = elements(xml, /<p:sp>/, () => '</p:sp>').map((e) => e.inner)
  const body = shapes.find((sp) => /<p:ph\b[^>]*\btype="body"/.test(sp))
  return body === undefined
    ? ''
    : paragraphs(body)
        .map((p) => p.text)
        .join('\n')
}

/** `Target`s of a relationships part by id, resolved against `base` (the part's folder). */
function relationships(xml: string | undefined, base: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of (xml ?? '').matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const id = /\bId="([^"]*)"/.exec(m[1]!)?.[1]
    const target = /\bTarget="([^"]*)"/.exec(m[1]!)?.[1]
    if (id === undefined || target === undefined) continue
    out.set(id, archivePath(base, target))
  }
  return out
}

export function convertPptx(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'pptx'> {
  const entries = zipEntries(input.bytes, input.name)
  const read = (path: string): string | undefined => {
    const entry = entries.get(path)
    return entry === undefined ? undefined : utf8.decode(entry())
  }
  const presentation = read('ppt/presentation.xml')
  if (presentation === undefined) throw new ConvertError('convert_unsupported', `${input.name}: not a PowerPoint presentation (no ppt/presentation.xml)`)
  const rels = relationships(read('ppt/_rels/presentation.xml.rels'), 'ppt')
  const slides = Array.from(presentation.matchAll(/<p:sldId\b[^>]*\br:id="([^"]*)"/g), (m) => rels.get(m[1]!)).filter((p): p is string => p !== undefined)
  const sections: string[] = []
  let firstTitle: string | undefined
  for (const [index, path] of slides.entries()) {
    const xml = read(path)
    if (xml === undefined) continue
    const { title, body } = slideText(xml)
    firstTitle ??= title
    const folder = path.slice(0, path.lastIndexOf('/'))
    const slideRels = relationships(read(`${folder}/_rels/${path.slice(folder.length + 1)}.rels`), folder)
    const notesPath = [...slideRels.values()].find((target) => /notesSlides\/[^/]+\.xml$/.test(target))
    const notes = notesPath === undefined ? '' : notesText(read(notesPath) ?? '')
    const parts = [`## Slide ${index + 1}${title === undefined ? '' : `: ${title}`}`, ...body]
    if (notes !== '') parts.push(`Notes: ${notes}`)
    sections.push(parts.join('\n\n'))
  }
  if (sections.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: the presentation has no slides`)
  const declared = /<dc:title>([^<]*)<\/dc:title>/.exec(read('docProps/core.xml') ?? '')?.[1]
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.pptx$/i, '')
  const title = (declared === undefined ? '' : decodeXmlText(declared).trim()) || firstTitle || fileTitle
  return {
    format: 'pptx',
    drafts: [{ slugHint: title.toLowerCase(), title, frontmatter: { type: 'presentation', slides: sections.length }, body: `# ${title}\n\n${sections.join('\n\n')}\n` }],
    counts: { slides: sections.length },
  }
}
