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
  // A heading's link to itself (`<h2><a href="#usage">Usage</a></h2>`, a `¶` or `#` permalink
  // beside it) is how documentation generators let readers copy the section's address; in the
  // page it is the heading's text alone.
  service.addRule('headingSelfLink', {
    filter: (node) => node.nodeName === 'A' && (node.getAttribute('href') ?? '').startsWith('#') && node.closest('h1, h2, h3, h4, h5, h6') !== null,
    replacement: (content) => (/^[\s¶#§🔗]*$/u.test(content) ? '' : content),
  })
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

/** Text before the naming heading shorter than this is left out: a help box, a breadcrumb. */
const MAX_TEXT_BEFORE_TITLE = 1000

/**
 * The heading that names the page, and the body after it. The page's `<title>` usually holds it
 * with the site's name added (`What is rustdoc? - The rustdoc book`), so that is the first
 * heading of level 1 or 2 whose text the `<title>` holds; short text before it (a keyboard-help
 * box the stylesheet hides, a breadcrumb) is no content. Without such a heading, one the
 * content opens with names the page.
 */
function namingHeading(body: string, docTitle: string | undefined): { title: string; body: string } | null {
  const headings = [...body.matchAll(/^#{1,2} (.+)\n*/gm)]
  const inTitle = docTitle === undefined ? undefined : headings.find((h) => h.index < MAX_TEXT_BEFORE_TITLE && h[1]!.trim().length >= 3 && docTitle.toLowerCase().includes(h[1]!.trim().toLowerCase()))
  const heading = inTitle ?? (headings[0]?.index === 0 ? headings[0] : undefined)
  if (heading === undefined) return null
  return { title: heading[1]!.trim(), body: body.slice(heading.index + heading[0].length) }
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
  const naming = namingHeading(body, docTitle)
  if (naming) {
    title = naming.title
    body = naming.body
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
