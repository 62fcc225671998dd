/**
 * HTML → one page draft: the main content (readability-style, navigation and footers left out)
 * as markdown with headings, lists, links, code blocks and tables; title, canonical URL and site
 * name in front matter. The document is parsed, never run: no scripts, no network.
 */
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'
import TurndownService from 'turndown'
import { tables, strikethrough } from 'turndown-plugin-gfm'
import { languageForFenceTag } from '../chunking/languages.js'
import { ConvertError } from './errors.js'
import { fencedCode } from './render.js'
import type { ConvertInput, ConvertLimits, ConvertResult } from './types.js'

interface ClassedNode {
  className?: string
  parentNode?: ClassedNode | null
}

/** The class names of a node's nearest `depth` ancestors. */
function ancestorClasses(node: ClassedNode, depth: number): string {
  const names: string[] = []
  for (let at = node.parentNode, i = 0; at && i < depth; at = at.parentNode, i++) names.push(typeof at.className === 'string' ? at.className : '')
  return names.join(' ')
}

/** The first class that names a language the chunker knows, `highlight-` dropped; '' for none. */
function knownLanguageClass(classes: string): string {
  for (const name of classes.split(/\s+/)) {
    const tag = name.replace(/^highlight-/, '').toLowerCase()
    if (tag !== '' && languageForFenceTag(tag) !== null) return tag
  }
  return ''
}

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
  // keeps its language when the page names it (`language-ts`, `lang-py`), or when a class on it
  // or on the blocks around it is a language the chunker knows (rustdoc's `rust`, Sphinx's
  // `highlight-python`, pandoc's `sourceCode python`).
  service.addRule('fencedPre', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as unknown as ClassedNode & { textContent?: string | null; querySelector(selector: string): { className?: string } | null }
      const classes = `${pre.querySelector('code')?.className ?? ''} ${pre.className ?? ''}`
      const lang = /(?:language|lang)-([\w+-]+)/.exec(classes)?.[1] ?? knownLanguageClass(`${classes} ${ancestorClasses(pre, 3)}`)
      const text = (pre.textContent ?? '').replace(/^\n/, '').replace(/\n$/, '')
      return `\n\n${fencedCode(text, lang)}\n\n`
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

/** The content of the `<meta>` whose `attribute` is `value`, compared without case as browsers do. */
function metaContent(document: ParsedDocument, attribute: string, value: string): string | undefined {
  return [...document.querySelectorAll('meta')].find((m) => (m.getAttribute(attribute) ?? '').toLowerCase() === value)?.getAttribute('content') ?? undefined
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

/**
 * A page that marks its main content (`<main>`, `role="main"`, as documentation generators and
 * most sites do) is read from there alone. Left to weigh the whole page, the readability pass
 * took an mdBook page's keyboard-help box (hidden by the stylesheet) for the article and dropped
 * the content, a short list of links.
 */
function keepOnlyMain(document: ParsedDocument): void {
  const main = document.querySelector('main, [role="main"]')
  if (main === null || document.body === null || (main.textContent ?? '').trim() === '') return
  document.body.innerHTML = main.outerHTML
}

/** A page with less text than this beside an immediate redirect has nothing of its own. */
const MAX_REDIRECT_STUB_TEXT = 500

/**
 * Documentation generators leave pages that only send the browser elsewhere (`<meta
 * http-equiv="refresh" content="0; URL=new/place.html">` and a line saying so): rustdoc output
 * holds nearly one for every page, an mdBook one for every moved chapter. As pages they would
 * be dozens titled `Redirecting...`; they are refused with their target instead.
 */
function refuseRedirectStub(document: ParsedDocument, name: string): void {
  const target = /^\s*0*\s*[;,]\s*url\s*=\s*['"]?([^'"\s]+)/i.exec(metaContent(document, 'http-equiv', 'refresh') ?? '')?.[1]
  const body = document.body
  if (target === undefined || body === null) return
  const scripts = [...body.querySelectorAll('script, style, noscript, template')].reduce((n, e) => n + (e.textContent ?? '').length, 0)
  if ((body.textContent ?? '').replace(/\s+/g, '').length - scripts >= MAX_REDIRECT_STUB_TEXT) return
  throw new ConvertError('convert_redirect', `${name} only redirects to ${target}.`, 'Import or capture the page it points to.')
}

/** Text before the naming heading shorter than this is left out: a help box, a breadcrumb. */
const MAX_TEXT_BEFORE_TITLE = 1000

const plainText = (text: string): string => text.replace(/\s+/g, ' ').trim()

/**
 * The heading that names the page, read before anything is taken out of the document: the page's
 * `<title>` holds it with the site's name added (`What is rustdoc? - The rustdoc book`). Among
 * the main content's headings of level 1 and 2, the one the `<title>` starts with, else the
 * first the `<title>` holds.
 */
function titleHeading(document: ParsedDocument, docTitle: string | undefined): string | undefined {
  const scope = document.querySelector('main, [role="main"]') ?? document.body
  if (docTitle === undefined || scope === null) return undefined
  const wanted = docTitle.toLowerCase()
  // A permalink sign after the heading's text (`Tutorial¶`) is no part of its name.
  const texts = [...scope.querySelectorAll('h1, h2')].map((h) => plainText((h.textContent ?? '').replace(/[\s¶§#🔗]+$/u, ''))).filter((text) => text.length >= 3)
  return texts.find((text) => wanted.startsWith(text.toLowerCase())) ?? texts.find((text) => wanted.includes(text.toLowerCase()))
}

/**
 * The page's title and the body after its heading. The heading named by the `<title>` is the
 * title; in the body, short text before it (a keyboard-help box the stylesheet hides, a
 * breadcrumb) and the heading itself are left out. Without such a heading, one the content
 * opens with names the page.
 */
function namingHeading(body: string, named: string | undefined): { title: string; body: string } | null {
  const headings = [...body.matchAll(/^#{1,2} (.+)\n*/gm)]
  // The heading as text: code spans and the converter's escapes (`is\_x86`) undone.
  const text = (heading: RegExpExecArray): string =>
    plainText(heading[1]!.replace(/`([^`]+)`|\\([\\`*_{}[\]()#+\-.!|<>~])/g, (_m, code: string | undefined, escaped: string | undefined) => code ?? escaped ?? ''))
  if (named !== undefined) {
    const found = headings.find((h) => h.index < MAX_TEXT_BEFORE_TITLE && text(h).toLowerCase() === named.toLowerCase())
    return { title: named, body: found === undefined ? body : body.slice(found.index + found[0].length) }
  }
  const lead = headings[0]?.index === 0 ? headings[0] : undefined
  return lead === undefined ? null : { title: text(lead), body: body.slice(lead[0].length) }
}

export function convertHtml(input: ConvertInput, _limits: ConvertLimits): ConvertResult<'html'> {
  const html = new TextDecoder('utf-8', { fatal: false }).decode(input.bytes)
  if (!/<[a-z!]/i.test(html)) throw new ConvertError('convert_unsupported', `${input.name}: not an HTML document`)
  const { document } = parseHTML(html)
  const canonical = resolveUrl(meta(document, 'link[rel="canonical"]', 'href'), input.url)
  const siteName = meta(document, 'meta[property="og:site_name"]', 'content')
  refuseRedirectStub(document, input.name)
  if (input.refuseNoindex && /\bnoindex\b/i.test(metaContent(document, 'name', 'robots') ?? '')) {
    throw new ConvertError('convert_noindex', `${input.name} asks not to be indexed (robots noindex).`, 'Capture it on its own to keep it anyway.')
  }
  const docTitle = document.querySelector('title')?.textContent?.trim()
  const named = titleHeading(document, docTitle)
  keepOnlyMain(document)
  const article = new Readability(document as unknown as ReadabilityDocument, { charThreshold: 100, keepClasses: true }).parse()
  const contentHtml = article?.content ?? document.body?.innerHTML ?? ''
  // One space after a list marker, as hand-written markdown has it.
  let body = htmlToMarkdown(contentHtml)
  if (body === '') body = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim()
  const fileTitle = input.name.slice(input.name.lastIndexOf('/') + 1).replace(/\.x?html?$/i, '')
  let title = (article?.title ?? '').trim() || docTitle || fileTitle
  const naming = namingHeading(body, named)
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
