/**
 * HTML → one page draft: the main content (readability-style, navigation and footers left out)
 * as markdown with headings, lists, links, code blocks and tables; title, canonical URL and site
 * name in front matter. The document is parsed, never run: no scripts, no network.
 */
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'
import TurndownService from 'turndown'
import { tables, strikethrough } from 'turndown-plugin-gfm'
import { ConvertError } from './errors.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

function turndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' })
  service.use([tables, strikethrough])
  service.remove(['script', 'style', 'noscript', 'iframe', 'form', 'button'])
  // Every <pre> is a code block, with or without a <code> inside (documentation generators often
  // leave it out): its text is kept as written, never escaped or reflowed as prose. The block
  // keeps its language when the page names it (`language-ts`, `lang-py`).
  service.addRule('fencedPre', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as unknown as { className?: string; textContent?: string | null; querySelector(selector: string): { className?: string } | null }
      const classes = `${pre.querySelector('code')?.className ?? ''} ${pre.className ?? ''}`
      const lang = /(?:language|lang)-([\w+-]+)/.exec(classes)?.[1] ?? ''
      const text = (pre.textContent ?? '').replace(/^\n/, '').replace(/\n$/, '')
      const longestRun = [...text.matchAll(/`+/g)].reduce((most, m) => Math.max(most, m[0].length), 0)
      const fence = '`'.repeat(Math.max(3, longestRun + 1))
      return `\n\n${fence}${lang}\n${text}\n${fence}\n\n`
    },
  })
  return service
}

type ParsedDocument = ReturnType<typeof parseHTML>['document']
type ReadabilityDocument = ConstructorParameters<typeof Readability>[0]

/** An HTML fragment (a mail's HTML part) as markdown, scripts and styles dropped. */
export function htmlToMarkdown(html: string): string {
  return turndown()
    .turndown(html)
    .trim()
    .replace(/^(\s*)([-*]|\d+\.) {2,}/gm, '$1$2 ')
}

function meta(document: ParsedDocument, selector: string, attribute: string): string | undefined {
  const value = document.querySelector(selector)?.getAttribute(attribute)?.trim()
  return value ? value : undefined
}

function resolveUrl(href: string | undefined, base: string | undefined): string | undefined {
  if (href === undefined) return undefined
  try {
    return new URL(href, base).href
  } catch {
    return undefined
  }
}

export function convertHtml(input: ConvertInput, _limits: ConvertLimits): ConvertResult {
  const html = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)
  if (!/<[a-z!]/i.test(html)) throw new ConvertError('convert_unsupported', `${input.name}: not an HTML document`)
  const { document } = parseHTML(html)
  const canonical = resolveUrl(meta(document, 'link[rel="canonical"]', 'href'), input.url)
  const siteName = meta(document, 'meta[property="og:site_name"]', 'content')
  const docTitle = document.querySelector('title')?.textContent?.trim()
  const article = new Readability(document as unknown as ReadabilityDocument, { charThreshold: 100, keepClasses: true }).parse()
  const contentHtml = article?.content ?? document.body?.innerHTML ?? ''
  // One space after a list marker, as hand-written markdown has it.
  let body = htmlToMarkdown(contentHtml)
  if (body === '') body = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim()
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.x?html?$/i, '')
  let title = (article?.title ?? '').trim() || docTitle || fileTitle
  // An article that opens with a heading names itself there; the page title often adds the site's name.
  const lead = /^#{1,2} (.+)\n+/.exec(body)
  if (lead) {
    title = lead[1]!.trim()
    body = body.slice(lead[0].length)
  }
  const frontmatter: Record<string, unknown> = { type: 'web', source_format: 'html' }
  if (input.url !== undefined) frontmatter.url = input.url
  if (canonical !== undefined) frontmatter.canonical_url = canonical
  const site = (article?.siteName ?? '').trim() || siteName
  if (site) frontmatter.site_name = site
  if (article?.byline) frontmatter.author = article.byline.trim()
  if (input.fetchedAt !== undefined) frontmatter.fetched_at = input.fetchedAt
  return { format: 'html', drafts: [{ slugHint: fileTitle.toLowerCase(), title, frontmatter, body: `# ${title}\n\n${body}\n` }], counts: {} }
}
