/**
 * EPUB books → one page: the book's title and authors from its package document, then every
 * chapter of its reading order (the spine) as markdown, a chapter's headings one level below the
 * book's. Links between the book's own files and its pictures are kept as text only, so a book
 * adds no links to nowhere. Scripts are never run, and a book under DRM is refused.
 */
import { ConvertError } from './errors.js'
import { htmlToMarkdown } from './html.js'
import { nestHeadings } from './render.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'
import { archivePath, zipEntries } from './zip-read.js'

const decoder = new TextDecoder('utf-8', { fatal: false })

function attributes(tag: string): Map<string, string> {
  return new Map(Array.from(tag.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g), (m) => [m[1]!.toLowerCase(), m[2] ?? m[3] ?? '']))
}

/** The text of each `<dc:name>` element of the package metadata, with entities read. */
function metadata(opf: string, name: string): string[] {
  return Array.from(opf.matchAll(new RegExp(`<dc:${name}\\b[^>]*>([\\s\\S]*?)</dc:${name}>`, 'gi')), (m) => htmlText(m[1]!)).filter((v) => v !== '')
}

function htmlText(fragment: string): string {
  return htmlToMarkdown(`<p>${fragment}</p>`).replace(/\\([\\`*_[\]#+.!-])/g, '$1')
}

/** A chapter's body as markdown; links into the book and pictures as their text. */
function chapterMarkdown(xhtml: string): string {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(xhtml)?.[1] ?? xhtml
  const markdown = htmlToMarkdown(body.replace(/<img\b[^>]*>|<svg\b[\s\S]*?<\/svg>/gi, ''))
  return nestHeadings(
    markdown.replace(/\[([^\]\n]*)\]\(([^)\s]*)(?:\s+"[^"\n]*")?\)/g, (link, text: string, href: string) => (/^(https?:|mailto:)/i.test(href) ? link : text)),
    1,
  )
}

export function convertEpub(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'epub'> {
  const entries = zipEntries(input.bytes, input.name)
  const read = (path: string): string | null => {
    const entry = entries.get(path)
    return entry ? decoder.decode(entry()) : null
  }
  const container = read('META-INF/container.xml')
  const opfPath = container ? attributes(/<rootfile\b[^>]*>/i.exec(container)?.[0] ?? '').get('full-path') : undefined
  const opf = opfPath ? read(opfPath) : null
  if (opf === null || opfPath === undefined) throw new ConvertError('convert_corrupt', `${input.name}: not an EPUB book (no package document)`)
  // Publishers obfuscate embedded fonts through the same file; only encrypted text is DRM.
  if (/<CipherReference\b[^>]*URI\s*=\s*["'][^"']*\.x?html?["']/i.test(read('META-INF/encryption.xml') ?? '')) {
    throw new ConvertError('convert_unsupported', `${input.name}: the book is encrypted (DRM)`, 'Export a copy without DRM from the application that holds the book.')
  }
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/')) : ''
  const manifest = new Map<string, { href: string; type: string }>()
  for (const m of opf.matchAll(/<item\b[^>]*>/gi)) {
    const a = attributes(m[0])
    if (a.has('id') && a.has('href')) manifest.set(a.get('id')!, { href: a.get('href')!, type: a.get('media-type') ?? '' })
  }
  const chapters: string[] = []
  for (const m of opf.matchAll(/<itemref\b[^>]*>/gi)) {
    const item = manifest.get(attributes(m[0]).get('idref') ?? '')
    if (!item || !/html/i.test(item.type)) continue
    const xhtml = read(archivePath(base, item.href))
    const markdown = xhtml === null ? '' : chapterMarkdown(xhtml)
    if (markdown !== '') chapters.push(markdown)
  }
  if (chapters.length === 0) throw new ConvertError('convert_unsupported', `${input.name}: the book has no text`)
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.epub$/i, '')
  const title = metadata(opf, 'title')[0] ?? fileTitle
  const authors = metadata(opf, 'creator')
  const frontmatter: Record<string, unknown> = { type: 'book', source_format: 'epub' }
  if (authors.length > 0) frontmatter.author = authors.length === 1 ? authors[0] : authors
  const language = metadata(opf, 'language')[0]
  if (language) frontmatter.language = language
  return { format: 'epub', drafts: [{ slugHint: fileTitle.toLowerCase(), title, frontmatter, body: `# ${title}\n\n${chapters.join('\n\n')}\n` }], counts: { chapters: chapters.length } }
}
